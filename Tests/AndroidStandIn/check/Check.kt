// Runs the generated builders on the stand-in and prints what each built, one line per action,
// for the Swift test to compare with the catalog:
//   category<TAB>action<TAB>title<TAB>remoteInputLabel<TAB>semanticAction<TAB>showsUserInterface<TAB>authenticationRequired<TAB>kind<TAB>mutable
// Usage: Check SDK_INT
package actionable.check

import android.app.PendingIntent
import android.content.Context
import android.os.Build


fun main(arguments: Array<String>) {
    Build.VERSION.SDK_INT = arguments[0].toInt()
    val context = StandInContext()
    val data = mapOf("actionToken" to "tok", "inviteId" to "42", "seats" to "3", "attemptId" to "a-1", "expiresAt" to "1800000000",
        "conversationId" to "c-1", "orderId" to "o-1", "tags" to "[]")
    for ((category, actions) in Generated.all(context, data)) {
        for (action in actions) {
            val pending = action.actionIntent!!
            val label = action.getRemoteInputs()?.firstOrNull()?.label ?: "-"
            println(listOf(category, pending.intent.getStringExtra("actionable.action"), action.title, label, action.getSemanticAction(),
                action.getShowsUserInterface(), action.isAuthenticationRequired(), pending.kind,
                (pending.flags and PendingIntent.FLAG_MUTABLE) != 0).joinToString("\t"))
        }
    }
}
