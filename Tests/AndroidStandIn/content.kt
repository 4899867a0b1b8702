@file:Suppress("unused", "UNUSED_PARAMETER")

package android.content

import android.os.Bundle

abstract class Context {
    abstract fun getPackageName(): String
    abstract fun getString(resId: Int): String
}

open class Intent {
    private var actionValue: String? = null
    private var packageValue: String? = null
    val extras = Bundle()
    var component: Class<*>? = null
        private set

    constructor()
    constructor(packageContext: Context, cls: Class<*>) { component = cls }

    open fun setAction(action: String?): Intent { actionValue = action; return this }
    open fun getAction(): String? = actionValue
    open fun setPackage(packageName: String?): Intent { packageValue = packageName; return this }
    open fun putExtra(name: String, value: String?): Intent { extras.putString(name, value); return this }
    open fun getStringExtra(name: String): String? = extras.getString(name)
}

abstract class BroadcastReceiver {
    abstract fun onReceive(context: Context, intent: Intent)
}
