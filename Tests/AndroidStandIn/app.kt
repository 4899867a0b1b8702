@file:Suppress("unused", "UNUSED_PARAMETER")

package android.app

import android.content.Context
import android.content.Intent

/** A stand-in PendingIntent: it keeps what it was made from, so a test can fire it. */
class PendingIntent private constructor(val kind: String, val requestCode: Int, val intent: Intent, val flags: Int) {
    companion object {
        const val FLAG_UPDATE_CURRENT: Int = 134217728
        const val FLAG_IMMUTABLE: Int = 67108864
        const val FLAG_MUTABLE: Int = 33554432

        @JvmStatic fun getBroadcast(context: Context, requestCode: Int, intent: Intent, flags: Int): PendingIntent =
            PendingIntent("broadcast", requestCode, intent, flags)

        @JvmStatic fun getActivity(context: Context, requestCode: Int, intent: Intent, flags: Int): PendingIntent =
            PendingIntent("activity", requestCode, intent, flags)
    }
}
