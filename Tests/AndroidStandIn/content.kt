@file:Suppress("unused", "UNUSED_PARAMETER")

package android.content

import android.content.pm.ApplicationInfo
import android.content.pm.PackageManager
import android.os.Bundle
import java.io.File

abstract class Context {
    abstract fun getPackageName(): String
    abstract fun getString(resId: Int): String
    abstract fun getApplicationContext(): Context
    abstract fun getSharedPreferences(name: String, mode: Int): SharedPreferences
    abstract fun getNoBackupFilesDir(): File
    abstract fun getPackageManager(): PackageManager
    abstract fun getApplicationInfo(): ApplicationInfo

    companion object {
        const val MODE_PRIVATE: Int = 0
    }
}

/** Delegates everything to its base context, as Android's does (a Service or an Activity is one). */
open class ContextWrapper(private var base: Context?) : Context() {
    /** The system attaches a component's base context (protected in Android). */
    protected open fun attachBaseContext(base: Context) { this.base = base }
    open fun getBaseContext(): Context = base ?: throw IllegalStateException("no base context attached")
    override fun getPackageName(): String = getBaseContext().getPackageName()
    override fun getString(resId: Int): String = getBaseContext().getString(resId)
    override fun getApplicationContext(): Context = getBaseContext().getApplicationContext()
    override fun getSharedPreferences(name: String, mode: Int): SharedPreferences = getBaseContext().getSharedPreferences(name, mode)
    override fun getNoBackupFilesDir(): File = getBaseContext().getNoBackupFilesDir()
    override fun getPackageManager(): PackageManager = getBaseContext().getPackageManager()
    override fun getApplicationInfo(): ApplicationInfo = getBaseContext().getApplicationInfo()
}

interface SharedPreferences {
    fun getString(key: String, defValue: String?): String?
    fun edit(): Editor

    interface Editor {
        fun putString(key: String, value: String?): Editor
        fun remove(key: String): Editor
        fun commit(): Boolean
        fun apply()
    }
}

class ComponentName(private val packageName: String, private val className: String) {
    fun getPackageName(): String = packageName
    fun getClassName(): String = className
}

class ClipData(label: CharSequence?, mimeTypes: Array<String>, item: Item) {
    private val description = ClipDescription(label, mimeTypes)
    private val items = arrayListOf(item)

    class Item(private val intent: Intent?) {
        fun getIntent(): Intent? = intent
    }

    fun getDescription(): ClipDescription = description
    fun getItemCount(): Int = items.size
    fun getItemAt(index: Int): Item = items[index]

    companion object {
        const val MIMETYPE_TEXT_INTENT: String = "text/vnd.android.intent"
        @JvmStatic fun newIntent(label: CharSequence?, intent: Intent?): ClipData = ClipData(label, arrayOf(MIMETYPE_TEXT_INTENT), Item(intent))
    }
}

class ClipDescription(private val label: CharSequence?, private val mimeTypes: Array<String>) {
    fun getLabel(): CharSequence? = label
    fun hasMimeType(mimeType: String): Boolean = mimeTypes.contains(mimeType)
}

open class Intent {
    private var actionValue: String? = null
    private var packageValue: String? = null
    private var componentValue: ComponentName? = null
    private var clip: ClipData? = null
    private val extras = Bundle()

    constructor()
    constructor(packageContext: Context, cls: Class<*>) { componentValue = ComponentName(packageContext.getPackageName(), cls.name) }

    open fun setAction(action: String?): Intent { actionValue = action; return this }
    open fun getAction(): String? = actionValue
    open fun setPackage(packageName: String?): Intent { packageValue = packageName; return this }
    open fun getPackage(): String? = packageValue
    open fun getComponent(): ComponentName? = componentValue
    open fun setComponent(component: ComponentName?): Intent { componentValue = component; return this }
    open fun putExtra(name: String, value: String?): Intent { extras.putString(name, value); return this }
    open fun putExtra(name: String, value: Int): Intent { extras.putInt(name, value); return this }
    open fun putExtra(name: String, value: Bundle?): Intent { extras.putBundle(name, value); return this }
    open fun getStringExtra(name: String): String? = extras.getString(name)
    open fun getIntExtra(name: String, defaultValue: Int): Int = extras.getInt(name, defaultValue)
    open fun getBundleExtra(name: String): Bundle? = extras.getBundle(name)
    open fun getExtras(): Bundle? = if (extras.isEmpty()) null else extras
    open fun setClipData(clip: ClipData?) { this.clip = clip }
    open fun getClipData(): ClipData? = clip

    /**
     * Copies into this intent what `other` has and this one lacks (its extras are added), as Android's fillIn: the
     * ClipData only where this intent has none (or FILL_IN_CLIP_DATA is given).
     */
    open fun fillIn(other: Intent, flags: Int): Int {
        var changed = 0
        if (other.clip != null && (clip == null || flags and FILL_IN_CLIP_DATA != 0)) { clip = other.clip; changed = changed or FILL_IN_CLIP_DATA }
        if (!other.extras.isEmpty()) extras.putAll(other.extras)
        return changed
    }

    companion object {
        const val FILL_IN_CLIP_DATA: Int = 128
    }
}

abstract class BroadcastReceiver {
    abstract fun onReceive(context: Context, intent: Intent)

    /** The broadcast kept active after onReceive returns, until `finish` (the system holds the process meanwhile). */
    open class PendingResult {
        private val done = java.util.concurrent.CountDownLatch(1)
        fun finish() { done.countDown() }
        /** The system's side: waits until finished. */
        fun awaitFinish() { done.await() }
    }

    private var pending: PendingResult? = null

    fun goAsync(): PendingResult = PendingResult().also { pending = it }

    /** The system's side: the result goAsync handed out during onReceive, if any. */
    fun pendingResultForStandIn(): PendingResult? = pending
}
