@file:Suppress("unused", "UNUSED_PARAMETER")

package androidx.core.app

import android.app.PendingIntent
import android.content.Intent
import android.os.Bundle

class RemoteInput private constructor(val resultKey: String, val label: CharSequence?) {
    class Builder(private val resultKey: String) {
        private var label: CharSequence? = null
        fun setLabel(label: CharSequence?): Builder { this.label = label; return this }
        fun build(): RemoteInput = RemoteInput(resultKey, label)
    }

    companion object {
        /** What the user typed, keyed by result key (the stand-in keeps it in the intent's extras). */
        @JvmStatic fun getResultsFromIntent(intent: Intent): Bundle? = if (intent.extras.keySet().isEmpty()) null else intent.extras
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
}
