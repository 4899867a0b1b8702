// A stand-in of Firebase Cloud Messaging's app side (com.google.firebase:firebase-messaging), from its
// documented declarations: the service receives data messages and new registration tokens.
@file:Suppress("unused", "UNUSED_PARAMETER")

package com.google.firebase.messaging

import android.os.Bundle

open class FirebaseMessagingService : android.app.Service() {
    open fun onMessageReceived(message: RemoteMessage) {}
    open fun onNewToken(token: String) {}
}

/** A message as FCM hands it to the app: `getData()` is the data message's string map, without FCM's own keys. */
class RemoteMessage(private val bundle: Bundle) {
    fun getData(): Map<String, String> {
        val data = LinkedHashMap<String, String>()
        for (key in bundle.keySet()) {
            if (key.startsWith("google.") || key.startsWith("gcm.") || key == "from" || key == "message_type" || key == "collapse_key") continue
            bundle.getString(key)?.let { data[key] = it }
        }
        return data
    }
}

/**
 * The app's FCM instance: `getToken()` is the device's current registration token, as a Task. The stand-in's token is
 * what a check sets in `standInToken` (null: the task fails, as it does without Google Play services).
 */
class FirebaseMessaging private constructor() {
    fun getToken(): com.google.android.gms.tasks.Task<String> {
        val token = standInToken
        return com.google.android.gms.tasks.CompletedTask(token, if (token == null) java.io.IOException("SERVICE_NOT_AVAILABLE") else null)
    }

    companion object {
        private val instance = FirebaseMessaging()
        @JvmStatic fun getInstance(): FirebaseMessaging = instance
        @Volatile var standInToken: String? = null
    }
}
