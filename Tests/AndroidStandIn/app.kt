@file:Suppress("unused", "UNUSED_PARAMETER")

package android.app

import android.content.BroadcastReceiver
import android.content.Context
import android.content.ContextWrapper
import android.content.Intent
import android.os.Build
import android.os.Bundle

/**
 * A stand-in PendingIntent: it keeps what it was made from, checks its flags as Android does from API 31 (one of
 * FLAG_IMMUTABLE and FLAG_MUTABLE, never both), and `send` delivers it as the system would: the fill-in intent
 * (RemoteInput's text) reaches the target only when the PendingIntent is mutable; a broadcast runs its receiver,
 * an activity is recorded as started.
 */
class PendingIntent private constructor(val kind: String, val requestCode: Int, val intent: Intent, val flags: Int) {
    class CanceledException(message: String) : Exception(message)

    fun send(context: Context, code: Int, intent: Intent?) {
        val delivered = Intent().also { it.fillIn(this.intent, 0) }
        delivered.setAction(this.intent.getAction()).setComponent(this.intent.getComponent())
        if (intent != null && flags and FLAG_IMMUTABLE == 0) delivered.fillIn(intent, 0)
        val target = delivered.getComponent()?.getClassName() ?: throw CanceledException("no component")
        when (kind) {
            "broadcast" -> {
                // As the system does: the broadcast is done when onReceive returns, or, after goAsync, when it is finished.
                val receiver = Class.forName(target).getConstructor().newInstance() as BroadcastReceiver
                receiver.onReceive(context, delivered)
                receiver.pendingResultForStandIn()?.awaitFinish()
            }
            else -> StartedActivities.started.add(delivered)
        }
    }

    companion object {
        const val FLAG_UPDATE_CURRENT: Int = 134217728
        const val FLAG_IMMUTABLE: Int = 67108864
        const val FLAG_MUTABLE: Int = 33554432

        private fun checked(flags: Int): Int {
            val immutable = flags and FLAG_IMMUTABLE != 0
            val mutable = flags and FLAG_MUTABLE != 0
            if (immutable && mutable) throw IllegalArgumentException("Cannot set both FLAG_IMMUTABLE and FLAG_MUTABLE for PendingIntent")
            if (Build.VERSION.SDK_INT >= 31 && !immutable && !mutable) {
                throw IllegalArgumentException(
                    "Targeting S+ (version 31 and above) requires that one of FLAG_IMMUTABLE or FLAG_MUTABLE be specified when creating a PendingIntent.")
            }
            // Before API 23 there is no FLAG_IMMUTABLE: every PendingIntent is mutable.
            return if (Build.VERSION.SDK_INT < 23) flags and FLAG_IMMUTABLE.inv() else flags
        }

        @JvmStatic fun getBroadcast(context: Context, requestCode: Int, intent: Intent, flags: Int): PendingIntent =
            PendingIntent("broadcast", requestCode, intent, checked(flags))

        @JvmStatic fun getActivity(context: Context, requestCode: Int, intent: Intent, flags: Int): PendingIntent =
            PendingIntent("activity", requestCode, intent, checked(flags))
    }
}

/** What the stand-in system started from activity PendingIntents (test-side view). */
object StartedActivities {
    val started = ArrayList<Intent>()
}

/** A posted notification as Android keeps it: its public fields, its channel and the compat builder's extras. */
class Notification(channel: String?) {
    private val channelId = channel
    @JvmField var contentIntent: PendingIntent? = null
    @JvmField var deleteIntent: PendingIntent? = null
    @JvmField var number: Int = 0
    @JvmField var icon: Int = 0
    @JvmField var extras: Bundle = Bundle()
    fun getChannelId(): String? = channelId

    companion object {
        const val EXTRA_TITLE: String = "android.title"
        const val EXTRA_TEXT: String = "android.text"
    }
}

/** The process's application: the system calls onCreate before any activity, service or receiver of the process. */
open class Application : ContextWrapper(null) {
    open fun onCreate() {}
}

/**
 * An activity: the intent that started it (getIntent), replaced with setIntent; onCreate when it is made, onNewIntent
 * when an intent reaches it while it runs (launchMode singleTop or singleTask).
 */
open class Activity : ContextWrapper(null) {
    private var current: Intent = Intent()
    open fun getIntent(): Intent = current
    open fun setIntent(newIntent: Intent) { current = newIntent }
    protected open fun onCreate(savedInstanceState: Bundle?) {}
    protected open fun onNewIntent(intent: Intent) {}
}

open class Service : ContextWrapper(null) {
    /** The system's attach (hidden in Android): gives the service its base context. */
    fun attachForStandIn(base: Context) { attachBaseContext(base) }
}
