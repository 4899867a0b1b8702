@file:Suppress("unused", "UNUSED_PARAMETER")

package android.content.pm

import android.content.Intent

abstract class PackageManager {
    abstract fun getLaunchIntentForPackage(packageName: String): Intent?

    companion object {
        const val PERMISSION_GRANTED: Int = 0
        const val PERMISSION_DENIED: Int = -1
    }
}

open class ApplicationInfo {
    @JvmField var icon: Int = 0
}
