// A tap on the generated actions, through the generated receiver and WorkManager, in separate
// JVM processes as an app would live them:
//   TapCheck tap NOTIFICATION_ID ACTION_TOKEN TEXT   — taps "comment" with TEXT, then "accept" (the same notification)
//   TapCheck run SERVER                              — runs the persisted work once; prints each outcome
package actionable.check

import android.os.Build
import androidx.work.FileWorkManager
import com.example.app.ActionableActionReceiver
import com.example.app.ActionableIntents
import com.example.app.ActionableReports
import com.example.app.Invite

fun tapMain(arguments: Array<String>) {
    val context = StandInContext()
    Build.VERSION.SDK_INT = 34
    when (arguments[0]) {
        "tap" -> {
            val data = mapOf("actionToken" to arguments[2], "inviteId" to "42", "seats" to "3")
            val actions = Invite.actions(context, arguments[1], data, Any::class.java)
            val comment = actions.first { it.actionIntent!!.intent.getStringExtra(ActionableIntents.ACTION) == Invite.Actions.COMMENT }
            val intent = comment.actionIntent!!.intent
            intent.extras.putCharSequence(ActionableIntents.TEXT, arguments[3])  // what RemoteInput writes into the mutable intent
            ActionableActionReceiver().onReceive(context, intent)
            val accept = actions.first { it.actionIntent!!.intent.getStringExtra(ActionableIntents.ACTION) == Invite.Actions.ACCEPT }
            ActionableActionReceiver().onReceive(context, accept.actionIntent!!.intent)
            println("tapped")
        }
        "run" -> {
            ActionableReports.server = arguments[1]
            for ((name, outcome) in FileWorkManager.runPending(context)) println(name + "\t" + outcome)
        }
    }
}

object TapCheck {
    @JvmStatic fun main(arguments: Array<String>) = tapMain(arguments)
}
