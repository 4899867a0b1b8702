@file:Suppress("unused", "UNUSED_PARAMETER")

package androidx.core.app

import android.app.Activity
import android.app.Notification
import android.app.PendingIntent
import android.content.ClipData
import android.content.Context
import android.content.Intent
import android.os.Bundle

class RemoteInput private constructor(val resultKey: String, val label: CharSequence?) {
    class Builder(private val resultKey: String) {
        private var label: CharSequence? = null
        fun setLabel(label: CharSequence?): Builder { this.label = label; return this }
        fun build(): RemoteInput = RemoteInput(resultKey, label)
    }

    companion object {
        const val RESULTS_CLIP_LABEL: String = "android.remoteinput.results"
        const val EXTRA_RESULTS_DATA: String = "android.remoteinput.resultsData"

        /** What the system writes when the user sends text: the results, in the intent's ClipData (never its extras). */
        @JvmStatic fun addResultsToIntent(remoteInputs: Array<RemoteInput>, intent: Intent, results: Bundle) {
            val clipIntent = intent.getClipData()?.getItemAt(0)?.getIntent() ?: Intent()
            val data = clipIntent.getBundleExtra(EXTRA_RESULTS_DATA) ?: Bundle()
            for (input in remoteInputs) data.putCharSequence(input.resultKey, results.getCharSequence(input.resultKey))
            clipIntent.putExtra(EXTRA_RESULTS_DATA, data)
            intent.setClipData(ClipData.newIntent(RESULTS_CLIP_LABEL, clipIntent))
        }

        /** The results the system wrote into the intent's ClipData, or null: Android never reads them from the extras. */
        @JvmStatic fun getResultsFromIntent(intent: Intent): Bundle? {
            val clip = intent.getClipData() ?: return null
            val description = clip.getDescription()
            if (!description.hasMimeType(ClipData.MIMETYPE_TEXT_INTENT) || description.getLabel() != RESULTS_CLIP_LABEL) return null
            return clip.getItemAt(0).getIntent()?.getBundleExtra(EXTRA_RESULTS_DATA)
        }
    }
}

class NotificationCompat {
    class Action private constructor(
        @JvmField val icon: Int, @JvmField val title: CharSequence?, @JvmField val actionIntent: PendingIntent?,
        private val inputs: Array<RemoteInput>?, private val semantic: Int, private val authentication: Boolean,
        private val showsUI: Boolean
    ) {
        class Builder(private val icon: Int, private val title: CharSequence?, private val intent: PendingIntent?) {
            private val inputs = ArrayList<RemoteInput>()
            private var semantic = SEMANTIC_ACTION_NONE
            private var authentication = false
            private var showsUserInterface = true

            fun addRemoteInput(remoteInput: RemoteInput?): Builder { if (remoteInput != null) inputs.add(remoteInput); return this }
            fun setSemanticAction(semanticAction: Int): Builder { semantic = semanticAction; return this }
            fun setAuthenticationRequired(authenticationRequired: Boolean): Builder { authentication = authenticationRequired; return this }
            fun setShowsUserInterface(showsUserInterface: Boolean): Builder { this.showsUserInterface = showsUserInterface; return this }
            fun build(): Action =
                Action(icon, title, intent, if (inputs.isEmpty()) null else inputs.toTypedArray(), semantic, authentication, showsUserInterface)
        }

        fun getRemoteInputs(): Array<RemoteInput>? = inputs
        fun getSemanticAction(): Int = semantic
        fun getShowsUserInterface(): Boolean = showsUI
        fun isAuthenticationRequired(): Boolean = authentication
        fun getTitle(): CharSequence? = title
        fun getActionIntent(): PendingIntent? = actionIntent

        companion object {
            const val SEMANTIC_ACTION_NONE: Int = 0
            const val SEMANTIC_ACTION_REPLY: Int = 1
            const val SEMANTIC_ACTION_MARK_AS_READ: Int = 2
            const val SEMANTIC_ACTION_MARK_AS_UNREAD: Int = 3
            const val SEMANTIC_ACTION_DELETE: Int = 4
            const val SEMANTIC_ACTION_ARCHIVE: Int = 5
            const val SEMANTIC_ACTION_MUTE: Int = 6
            const val SEMANTIC_ACTION_UNMUTE: Int = 7
            const val SEMANTIC_ACTION_THUMBS_UP: Int = 8
            const val SEMANTIC_ACTION_THUMBS_DOWN: Int = 9
            const val SEMANTIC_ACTION_CALL: Int = 10
        }
    }

    class Builder(private val context: Context, private val channelId: String) {
        private var smallIcon = 0
        private var title: CharSequence? = null
        private var text: CharSequence? = null
        private var content: PendingIntent? = null
        private var delete: PendingIntent? = null
        private var number = 0
        private val actions = ArrayList<Action>()

        fun setSmallIcon(icon: Int): Builder { smallIcon = icon; return this }
        fun setContentTitle(title: CharSequence?): Builder { this.title = title; return this }
        fun setContentText(text: CharSequence?): Builder { this.text = text; return this }
        fun setPriority(priority: Int): Builder = this
        fun setAutoCancel(autoCancel: Boolean): Builder = this
        fun setContentIntent(intent: PendingIntent?): Builder { content = intent; return this }
        fun setDeleteIntent(intent: PendingIntent?): Builder { delete = intent; return this }
        fun setNumber(number: Int): Builder { this.number = number; return this }
        fun addAction(action: Action?): Builder { if (action != null) actions.add(action); return this }

        /** Android refuses a notification without a small icon (it would crash the system UI): so does the stand-in. */
        fun build(): Notification {
            if (smallIcon == 0) throw IllegalArgumentException("Invalid notification (no valid small icon)")
            val notification = Notification(channelId)
            notification.icon = smallIcon
            notification.contentIntent = content
            notification.deleteIntent = delete
            notification.number = number
            notification.extras.putCharSequence(Notification.EXTRA_TITLE, title)
            notification.extras.putCharSequence(Notification.EXTRA_TEXT, text)
            builtActions[notification] = ArrayList(actions)
            return notification
        }
    }

    companion object {
        const val PRIORITY_HIGH: Int = 1
        private val builtActions = java.util.WeakHashMap<Notification, List<Action>>()

        @JvmStatic fun getActionCount(notification: Notification): Int = builtActions[notification]?.size ?: 0
        @JvmStatic fun getAction(notification: Notification, actionIndex: Int): Action? = builtActions[notification]?.getOrNull(actionIndex)
        @JvmStatic fun getContentTitle(notification: Notification): CharSequence? = notification.extras.getCharSequence(Notification.EXTRA_TITLE)
        @JvmStatic fun getContentText(notification: Notification): CharSequence? = notification.extras.getCharSequence(Notification.EXTRA_TEXT)
    }
}

class NotificationChannelCompat private constructor(val id: String, val importance: Int, val name: CharSequence?) {
    class Builder(private val id: String, private val importance: Int) {
        private var name: CharSequence? = null
        fun setName(name: CharSequence?): Builder { this.name = name; return this }
        fun build(): NotificationChannelCompat = NotificationChannelCompat(id, importance, name)
    }
}

/**
 * The stand-in's notification manager: what is posted, by tag and id, and the channels, in this process. Posting
 * without POST_NOTIFICATIONS granted (API 33 and later) is refused as Android does: the notification is not shown.
 */
class NotificationManagerCompat private constructor() {
    fun notify(tag: String?, id: Int, notification: Notification) {
        if (!areNotificationsEnabled()) return  // Android drops it (and logs), it does not throw
        val channel = notification.getChannelId()
        if (android.os.Build.VERSION.SDK_INT >= 26 && (channel == null || !channels.containsKey(channel))) {
            return  // Android 8 and later show nothing posted on a channel that does not exist
        }
        posted[key(tag, id)] = notification
    }

    fun cancel(tag: String?, id: Int) { posted.remove(key(tag, id)) }
    fun areNotificationsEnabled(): Boolean = enabled && (android.os.Build.VERSION.SDK_INT < 33 || permissionGranted)
    fun createNotificationChannel(channel: NotificationChannelCompat) { if (android.os.Build.VERSION.SDK_INT >= 26) channels[channel.id] = channel }
    fun getNotificationChannelCompat(channelId: String): NotificationChannelCompat? = channels[channelId]

    companion object {
        const val IMPORTANCE_HIGH: Int = 4
        const val IMPORTANCE_DEFAULT: Int = 3
        private val posted = LinkedHashMap<String, Notification>()
        private val channels = LinkedHashMap<String, NotificationChannelCompat>()

        /** The user's switch for the app's notifications (test-side). */
        @JvmField var enabled: Boolean = true
        /** Whether POST_NOTIFICATIONS is granted (test-side; what ContextCompat.checkSelfPermission answers). */
        @JvmField var permissionGranted: Boolean = true
        /** The requests made with ActivityCompat.requestPermissions (test-side). */
        val requested = ArrayList<String>()

        @JvmStatic fun from(context: Context): NotificationManagerCompat = NotificationManagerCompat()
        private fun key(tag: String?, id: Int) = (tag ?: "") + "#" + id
        /** What is showing, by "tag#id" (test-side). */
        fun showing(): Map<String, Notification> = LinkedHashMap(posted)
    }
}

object ActivityCompat {
    @JvmStatic fun requestPermissions(activity: Activity, permissions: Array<String>, requestCode: Int) {
        NotificationManagerCompat.requested.addAll(permissions)
    }
}
