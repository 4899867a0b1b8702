@file:Suppress("unused", "UNUSED_PARAMETER")

package androidx.core.content

import android.content.Context
import android.content.pm.PackageManager
import androidx.core.app.NotificationManagerCompat

object ContextCompat {
    /** Granted for everything but POST_NOTIFICATIONS, which follows the stand-in's switch. */
    @JvmStatic fun checkSelfPermission(context: Context, permission: String): Int =
        if (permission != "android.permission.POST_NOTIFICATIONS" || NotificationManagerCompat.permissionGranted) PackageManager.PERMISSION_GRANTED
        else PackageManager.PERMISSION_DENIED
}
