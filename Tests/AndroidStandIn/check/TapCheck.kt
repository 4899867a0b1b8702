// The generated Android code as an app lives it, in separate JVM processes, on the stand-in:
//   TapCheck configure SERVER [BEARER]          — ActionableReports.configure, as Application.onCreate does
//   TapCheck token FCM_TOKEN                    — FCM hands the messaging service a new token
//   TapCheck signin FCM_TOKEN                   — a user signs in: FirebaseMessaging's current token is registered
//   TapCheck deliver DATA_FILE ACTION-or-- [TEXT or -] [halt]
//       — FCM hands the messaging service the data message (a JSON object of strings in DATA_FILE); prints what is
//         posted (with each action's title); unless ACTION is -, the user taps ACTION (with TEXT typed into its RemoteInput), as the system does it (the PendingIntent
//         sent with a fill-in intent); prints whether the notification is gone; with `halt`, the process is killed
//         the moment the broadcast is finished (the receiver returned, or finished what it did with goAsync)
//   TapCheck permission DATA_FILE               — POST_NOTIFICATIONS not granted: what is shown, and whether the helper asks
//   TapCheck catalog ID FILE...               — the runtime catalog's reading of category ID in each served body
//   TapCheck burst COUNT DATA_FILE              — COUNT data messages in one process; prints how many are posted and the catalog threads alive
//   TapCheck run                                 — runs the persisted work once (a fresh process: nothing in memory); prints each outcome
package actionable.check

import android.os.Build
import android.os.Bundle
import androidx.core.app.NotificationCompat
import androidx.core.app.NotificationManagerCompat
import androidx.core.app.RemoteInput
import androidx.work.FileWorkManager
import com.example.app.ActionableIntents
import com.example.app.ActionableMessagingService
import com.example.app.ActionableReports
import com.google.firebase.messaging.RemoteMessage

/** A JSON object of strings, as the stand-in FCM's /sent lists `message.data`. */
fun readData(text: String): Map<String, String> {
    val data = LinkedHashMap<String, String>()
    val pattern = Regex("\"((?:[^\"\\\\]|\\\\.)*)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"")
    for (match in pattern.findAll(text)) data[unescape(match.groupValues[1])] = unescape(match.groupValues[2])
    return data
}

fun unescape(text: String): String {
    val output = StringBuilder()
    var index = 0
    while (index < text.length) {
        val character = text[index]
        if (character != '\\') { output.append(character); index += 1; continue }
        val next = text[index + 1]
        when (next) {
            'n' -> output.append('\n')
            't' -> output.append('\t')
            'r' -> output.append('\r')
            'b' -> output.append('\b')
            'f' -> output.append('\u000C')
            'u' -> { output.append(text.substring(index + 2, index + 6).toInt(16).toChar()); index += 4 }
            else -> output.append(next)
        }
        index += 2
    }
    return output.toString()
}

fun tapMain(arguments: Array<String>) {
    val context = StandInContext()
    Build.VERSION.SDK_INT = (System.getProperty("actionable.sdk") ?: "34").toInt()
    when (arguments[0]) {
        "configure" -> {
            ActionableReports.configure(context, arguments[1], arguments.getOrNull(2))
            println("configured")
        }
        "token" -> {
            val service = ActionableMessagingService()
            service.attachForStandIn(context)
            service.onNewToken(arguments[1])
            println("token handed over")
        }
        "signin" -> {
            // A user signs in: FirebaseMessaging's current token (no onNewToken: it did not change) is registered.
            com.google.firebase.messaging.FirebaseMessaging.standInToken = arguments[1]
            com.example.app.ActionableDevices.registerCurrentToken(context)
            println("signed in")
        }
        "deliver" -> {
            val data = readData(java.io.File(arguments[1]).readText())
            val bundle = Bundle()
            for ((key, value) in data) bundle.putString(key, value)
            bundle.putString("from", "1234567890")
            val service = ActionableMessagingService()
            service.attachForStandIn(context)
            service.onMessageReceived(RemoteMessage(bundle))
            val showing = NotificationManagerCompat.showing()
            println("posted\t" + showing.keys.joinToString(","))
            val notification = showing.values.firstOrNull() ?: return
            val actions = (0 until NotificationCompat.getActionCount(notification)).map { NotificationCompat.getAction(notification, it)!! }
            println("title\t" + NotificationCompat.getContentTitle(notification))
            println("actions\t" + actions.joinToString(",") { it.actionIntent!!.intent.getStringExtra(ActionableIntents.ACTION) ?: "?" })
            println("titles\t" + actions.joinToString(",") { it.getTitle().toString() })
            println("channel\t" + notification.getChannelId() + "\tdelete\t" + (notification.deleteIntent != null) + "\topens\t" + (notification.contentIntent != null))
            if (arguments[2] == "-") return
            val action = actions.first { it.actionIntent!!.intent.getStringExtra(ActionableIntents.ACTION) == arguments[2] }
            val fillIn = android.content.Intent()
            val text = arguments.getOrNull(3)?.takeIf { it != "-" }
            if (text != null) {
                val results = Bundle()
                results.putCharSequence(ActionableIntents.TEXT, text)
                RemoteInput.addResultsToIntent(action.getRemoteInputs()!!, fillIn, results)
            }
            action.actionIntent!!.send(context, 0, fillIn)
            println("cancelled\t" + NotificationManagerCompat.showing().isEmpty())
            if (arguments.getOrNull(4) == "halt") Runtime.getRuntime().halt(0)
        }
        "permission" -> {
            // Android 13 without POST_NOTIFICATIONS: nothing is posted, and the helper asks for it (not before 13).
            NotificationManagerCompat.permissionGranted = false
            val data = readData(java.io.File(arguments[1]).readText())
            println("shown\t" + com.example.app.ActionableNotifications.show(context, data) + "\tposted\t" + NotificationManagerCompat.showing().size)
            println("asked\t" + com.example.app.ActionableNotifications.requestPermission(MainActivity(), 7) + "\t" + NotificationManagerCompat.requested.joinToString(","))
        }
        "catalog" -> {
            // What the runtime catalog makes of each served body: the category's shown actions, or none.
            for (path in arguments.drop(2)) {
                val category = try {
                    com.example.app.ActionableCatalog.category(java.io.File(path).readText(), arguments[1])
                } catch (error: Throwable) {
                    println(java.io.File(path).name + "\tthrew " + error.javaClass.name)
                    continue
                }
                println(java.io.File(path).name + "\t" + (category?.actions?.joinToString(",") { it.id + "=" + it.title } ?: "none"))
            }
        }
        "burst" -> {
            // COUNT data messages in one process, as FCM hands them to one app; then how many of the catalog's
            // exchanges with the server are still alive (a server that trickles must not hold one per notification).
            val count = arguments[1].toInt()
            val data = readData(java.io.File(arguments[2]).readText())
            val service = ActionableMessagingService()
            service.attachForStandIn(context)
            for (index in 0 until count) {
                val bundle = Bundle()
                for ((key, value) in data) bundle.putString(key, if (key == "notificationId") value + "-" + index else value)
                bundle.putString("from", "1234567890")
                service.onMessageReceived(RemoteMessage(bundle))
            }
            println("posted\t" + NotificationManagerCompat.showing().size)
            // Threads at work in the catalog's code, whatever their names.
            val busy = Thread.getAllStackTraces().filter { (thread, stack) ->
                thread.isAlive && thread != Thread.currentThread() && stack.any { it.className.contains("ActionableCatalog") }
            }
            println("threads\t" + busy.size)
        }
        "run" -> {
            for ((name, outcome) in FileWorkManager.runPending(context)) println(name + "\t" + outcome)
        }
    }
}

object TapCheck {
    @JvmStatic fun main(arguments: Array<String>) = tapMain(arguments)
}
