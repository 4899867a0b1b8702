extension KotlinRuntime {
    /// `ActionableCatalog`, the part of the runtime that reads the categories the server serves
    /// (GET /v1/categories) for a category the generated code does not know; placed in the
    /// runtime's text before `ActionableJson`. Kotlin 1.3, as the rest.
    static let catalogText = #"""
        /**
         * The categories the server serves (GET /v1/categories), for a category this app's generated code does not know:
         * a category added to the server's files gets its buttons on installed apps without a release. The catalog and its
         * ETag are kept in one file (no_backup). A category the kept catalog has is shown from it at once, and the catalog
         * is asked for again (If-None-Match) in the background, for the next notification; one it does not have waits for
         * the server, at most about eight seconds in all, so the notification is still posted within FCM's time. What is served is checked as
         * the category files are — identifiers, at most ten actions and three shown, a title on each, known payload types —
         * and a category that breaks a rule gets no buttons. Titles are in the device's language (Locale.getDefault()),
         * else the catalog's first.
         */
        public object ActionableCatalog {
            /** The largest catalog read, in bytes: a larger answer is refused. */
            public const val LIMIT: Int = 1048576
            private const val FILE: String = "actionable-catalog"
            private val lock = Any()

            /** A served action as Android shows it. `maxLength` is 0 for an action without a text field. */
            public class Action(val id: String, val title: String, val foreground: Boolean, val authenticationRequired: Boolean,
                val maxLength: Int, val label: String?, val semanticAction: Int?)

            /** A served category: the actions Android shows, the payload's keys with their types and whether each is required. */
            public class Category(val id: String, val actions: List<Action>, val payload: Map<String, Pair<String, Boolean>>,
                val reportsDismiss: Boolean)

            /** The served category `id`, or null when it is not served, breaks a rule, or no catalog can be had. It blocks, about eight seconds at most. */
            public fun category(context: Context, id: String): Category? {
                kept(context)?.let { category(it.second, id) }?.let { served ->
                    // For the next notification; at most one exchange with the server at a time, whatever arrives meanwhile.
                    start(context.getApplicationContext())
                    return served
                }
                return refresh(context)?.let { category(it, id) }
            }

            /** One exchange with the server: its connection (for the watchdog), its outcome, and when it must end. */
            private class Exchange(val deadline: Long) {
                @Volatile var connection: java.net.HttpURLConnection? = null
                @Volatile var body: String? = null
                val done = java.util.concurrent.CountDownLatch(1)
            }

            private val current = java.util.concurrent.atomic.AtomicReference<Exchange?>(null)
            /** Ends an exchange at its deadline: disconnecting ends a read blocked on a server that trickles its headers. */
            private val watchdog: java.util.Timer by lazy { java.util.Timer("actionable-catalog-watchdog", true) }

            /**
             * The exchange under way, or a new one started on a thread of its own. From its deadline on, the watchdog
             * disconnects it every second until it ends (a disconnect before the connection exists does nothing), and
             * an exchange past its deadline is never joined: a new one takes its place.
             */
            private fun start(context: Context): Exchange {
                while (true) {
                    val running = current.get()
                    if (running != null) {
                        if (System.nanoTime() < running.deadline) return running
                        running.connection?.disconnect()
                        current.compareAndSet(running, null)
                        continue
                    }
                    val exchange = Exchange(System.nanoTime() + 8_000_000_000L)
                    if (!current.compareAndSet(null, exchange)) continue
                    val stop = object : java.util.TimerTask() {
                        override fun run() { exchange.connection?.disconnect() }
                    }
                    try {
                        watchdog.schedule(stop, 8_000L, 1_000L)
                        val thread = Thread({
                            try {
                                exchange.body = fetch(context, exchange)
                            } catch (error: Throwable) {
                                exchange.body = null
                            } finally {
                                stop.cancel()
                                current.compareAndSet(exchange, null)
                                exchange.done.countDown()
                            }
                        }, "actionable-catalog")
                        thread.setDaemon(true)
                        thread.start()
                    } catch (error: Throwable) {
                        // No watchdog or no thread (the process is short of them): no exchange, and none left set.
                        stop.cancel()
                        current.compareAndSet(exchange, null)
                        exchange.done.countDown()
                    }
                    return exchange
                }
            }

            /**
             * The catalog after asking the server (If-None-Match with the kept ETag): a new one is kept; null when not
             * reachable within about eight seconds, headers and body together. Joins an exchange already under way.
             */
            public fun refresh(context: Context): String? {
                if (ActionableReports.server(context) == null) return null
                val exchange = start(context.getApplicationContext())
                val remaining = exchange.deadline - System.nanoTime()
                if (remaining <= 0 || !exchange.done.await(remaining, java.util.concurrent.TimeUnit.NANOSECONDS)) {
                    exchange.connection?.disconnect()
                    return null
                }
                return exchange.body
            }

            private fun fetch(context: Context, exchange: Exchange): String? {
                val server = ActionableReports.server(context) ?: return null
                val kept = kept(context)
                val connection = java.net.URL(server.trimEnd('/') + "/v1/categories").openConnection() as java.net.HttpURLConnection
                exchange.connection = connection
                try {
                    if (System.nanoTime() > exchange.deadline) return null  // the watchdog came first
                    connection.instanceFollowRedirects = false
                    connection.connectTimeout = 4000
                    connection.readTimeout = 4000
                    connection.setRequestProperty("Accept", "application/json")
                    if (kept != null) connection.setRequestProperty("If-None-Match", kept.first)
                    val status = connection.responseCode
                    if (status == 304 && kept != null) return kept.second
                    if (status != 200) return null
                    val etag = connection.getHeaderField("ETag") ?: return null
                    if (!isEntityTag(etag) || connection.getContentLength() > LIMIT) return null
                    val bytes = readAtMost(connection.inputStream, LIMIT, exchange.deadline) ?: return null
                    val body = String(bytes, Charsets.UTF_8)
                    if (!shallow(body)) return null
                    org.json.JSONObject(body)  // a catalog is a JSON object; anything else is not kept
                    if (System.nanoTime() > exchange.deadline) return null
                    synchronized(lock) {
                        val file = java.io.File(context.getNoBackupFilesDir(), FILE)
                        val temporary = java.io.File(context.getNoBackupFilesDir(), FILE + ".tmp")
                        temporary.writeText(etag + "\n" + body, Charsets.UTF_8)
                        temporary.renameTo(file)
                    }
                    return body
                } finally {
                    connection.disconnect()
                }
            }

            /** The kept catalog's ETag and body, or null. */
            public fun kept(context: Context): Pair<String, String>? {
                val text = synchronized(lock) {
                    val file = java.io.File(context.getNoBackupFilesDir(), FILE)
                    if (file.exists()) file.readText(Charsets.UTF_8) else null
                } ?: return null
                val newline = text.indexOf('\n')
                if (newline < 0 || !isEntityTag(text.substring(0, newline))) return null
                return Pair(text.substring(0, newline), text.substring(newline + 1))
            }

            /** The category `id` of the catalog `body`, checked; null when absent, retired or breaking a rule. */
            public fun category(body: String, id: String): Category? {
                // org.json reads nested values recursively: a deep enough body would overflow the stack.
                if (!shallow(body)) return null
                val root = try {
                    org.json.JSONObject(body)
                } catch (error: org.json.JSONException) {
                    return null
                } catch (error: StackOverflowError) {
                    return null
                }
                if (root.opt("version") != 1) return null
                val categories = root.optJSONArray("categories") ?: return null
                for (index in 0 until categories.length()) {
                    val category = categories.optJSONObject(index) ?: continue
                    if (category.opt("category") == id) return parse(category, id)
                }
                return null
            }

            private fun parse(category: org.json.JSONObject, id: String): Category? {
                if (!isIdentifier(id) || category.opt("retired") == true) return null
                val list = category.optJSONArray("actions") ?: return null
                val declared = LinkedHashMap<String, org.json.JSONObject>()
                for (index in 0 until list.length()) {
                    val action = list.optJSONObject(index) ?: return null
                    val actionId = action.opt("id") as? String ?: return null
                    if (!isIdentifier(actionId) || actionId.startsWith("com.apple.") || declared.containsKey(actionId)) return null
                    if (action.opt("retired") != true) declared[actionId] = action
                }
                if (declared.size > 10) return null
                val contexts = category.optJSONObject("contexts")
                val defaultContext = strings(contexts?.opt("default")) ?: return null
                if (defaultContext.size > 4 || defaultContext.any { !declared.containsKey(it) }) return null
                val android = category.optJSONObject("android")?.opt("actions")
                val shown = if (android != null) {
                    strings(android) ?: return null
                } else {
                    (defaultContext + declared.keys.filter { !defaultContext.contains(it) }).take(3)
                }
                if (shown.size > 3 || shown.toSet().size != shown.size || shown.any { !declared.containsKey(it) }) return null
                val actions = ArrayList<Action>()
                for (actionId in shown) actions.add(action(declared.getValue(actionId)) ?: return null)
                val payload = LinkedHashMap<String, Pair<String, Boolean>>()
                category.optJSONObject("payload")?.let { fields ->
                    for (key in fields.keys()) {
                        val field = fields.optJSONObject(key) ?: return null
                        val type = field.opt("type") as? String ?: return null
                        if (type !in setOf("string", "integer", "number", "boolean", "object", "array")) return null
                        payload[key] = Pair(type, field.opt("required") == true)
                    }
                }
                val options = strings(category.opt("options")) ?: return null
                return Category(id, actions, payload, options.contains("customDismissAction"))
            }

            private fun action(action: org.json.JSONObject): Action? {
                val id = action.opt("id") as? String ?: return null
                val title = text(action.opt("title")) ?: return null
                if (title.isBlank()) return null
                val input = action.opt("input")
                var maxLength = 0
                var label: String? = null
                if (input != null) {
                    if (input !is org.json.JSONObject) return null
                    val limit = input.opt("maxLength") ?: 1000
                    if (limit !is Int || limit < 1) return null
                    maxLength = limit
                    label = text(input.opt("placeholder")) ?: text(input.opt("button")) ?: title
                }
                val semantic = when (action.optJSONObject("android")?.opt("semanticAction")) {
                    "reply" -> NotificationCompat.Action.SEMANTIC_ACTION_REPLY
                    "markAsRead" -> NotificationCompat.Action.SEMANTIC_ACTION_MARK_AS_READ
                    "markAsUnread" -> NotificationCompat.Action.SEMANTIC_ACTION_MARK_AS_UNREAD
                    "delete" -> NotificationCompat.Action.SEMANTIC_ACTION_DELETE
                    "archive" -> NotificationCompat.Action.SEMANTIC_ACTION_ARCHIVE
                    "mute" -> NotificationCompat.Action.SEMANTIC_ACTION_MUTE
                    "unmute" -> NotificationCompat.Action.SEMANTIC_ACTION_UNMUTE
                    "thumbsUp" -> NotificationCompat.Action.SEMANTIC_ACTION_THUMBS_UP
                    "thumbsDown" -> NotificationCompat.Action.SEMANTIC_ACTION_THUMBS_DOWN
                    "call" -> NotificationCompat.Action.SEMANTIC_ACTION_CALL
                    else -> null
                }
                return Action(id, title, action.opt("activation") == "foreground", action.opt("authenticationRequired") == true,
                    maxLength, label, semantic)
            }

            /** The actions of a served category's notification, built as the generated ones are. */
            public fun actions(context: Context, category: Category, notificationId: String, data: Map<String, String>, activity: Class<*>): List<NotificationCompat.Action> {
                val payload = payloadJson(category, data) ?: "{}"
                val actions = ArrayList<NotificationCompat.Action>()
                for (action in category.actions) {
                    val target: Class<*> = if (action.foreground) activity else ActionableActionReceiver::class.java
                    val intent = ActionableIntents.tap(context, target, category.id, action.id, notificationId, data["actionToken"], payload)
                    if (action.maxLength > 0) intent.putExtra(ActionableIntents.MAX_LENGTH, action.maxLength)
                    val flags = PendingIntent.FLAG_UPDATE_CURRENT or
                        (if (action.maxLength > 0) ActionableIntents.mutableFlag() else ActionableIntents.immutableFlag())
                    val requestCode = ActionableIntents.requestCode(notificationId, action.id)
                    val pending = if (action.foreground) PendingIntent.getActivity(context, requestCode, intent, flags)
                        else PendingIntent.getBroadcast(context, requestCode, intent, flags)
                    val builder = NotificationCompat.Action.Builder(0, action.title, pending)
                    if (action.maxLength > 0) builder.addRemoteInput(RemoteInput.Builder(ActionableIntents.TEXT).setLabel(action.label).build())
                    action.semanticAction?.let { builder.setSemanticAction(it) }
                    builder.setShowsUserInterface(action.foreground)
                    if (action.authenticationRequired && Build.VERSION.SDK_INT >= Build.VERSION_CODES.S) builder.setAuthenticationRequired(true)
                    actions.add(builder.build())
                }
                return actions
            }

            /** The typed payload a tap sends back (what the action token's pld binds), from the data message; null when a required key is missing or a value does not parse. */
            public fun payloadJson(category: Category, data: Map<String, String>): String? {
                val fields = ArrayList<String>()
                for ((key, field) in category.payload) {
                    val value = data[key]
                    if (value == null) {
                        if (field.second) return null
                        continue
                    }
                    val json = when (field.first) {
                        "string" -> ActionableJson.string(value)
                        "integer" -> (value.toLongOrNull() ?: return null).toString()
                        "number" -> (value.toDoubleOrNull() ?: return null).toString()
                        "boolean" -> when (value) { "true" -> "true"; "false" -> "false"; else -> return null }
                        else -> value  // an object or array: the JSON text the server sent
                    }
                    fields.add(ActionableJson.string(key) + ":" + json)
                }
                return fields.joinToString(",", "{", "}")
            }

            /** A plain text, or the translation for the device's language (exact, then by language), else the first. */
            private fun text(value: Any?): String? {
                if (value is String) return value
                if (value !is org.json.JSONObject) return null
                val translations = LinkedHashMap<String, String>()
                for (locale in value.keys()) translations[locale] = value.opt(locale) as? String ?: return null
                if (translations.isEmpty()) return null
                // toLanguageTag, not getLanguage: the latter says iw, in and ji for he, id and yi.
                val tag = java.util.Locale.getDefault().toLanguageTag()
                val language = tag.substringBefore('-')
                translations.entries.firstOrNull { it.key.replace('_', '-').equals(tag, ignoreCase = true) }?.let { return it.value }
                translations.entries.firstOrNull { it.key.replace('_', '-').substringBefore('-').equals(language, ignoreCase = true) }?.let { return it.value }
                return translations.values.first()
            }

            /**
             * Whether `body` opens at most 32 objects and arrays that are not closed yet, counting every bracket — also
             * those in strings, since org.json takes single-quoted and unquoted strings too and a count that skipped
             * "strings" could be fooled. A catalog nests 5 deep; brackets in its texts only make this stricter.
             */
            private fun shallow(body: String): Boolean {
                var depth = 0
                for (character in body) {
                    if (character == '{' || character == '[') {
                        if (++depth > 32) return false
                    } else if (character == '}' || character == ']') {
                        depth--
                    }
                }
                return true
            }

            private fun strings(value: Any?): List<String>? {
                if (value == null) return emptyList()
                if (value !is org.json.JSONArray) return null
                val result = ArrayList<String>()
                for (index in 0 until value.length()) result.add(value.opt(index) as? String ?: return null)
                return result
            }

            private fun isIdentifier(text: String): Boolean =
                text.length in 1..64 && (text[0] in 'a'..'z' || text[0] in 'A'..'Z') &&
                    text.all { it in 'a'..'z' || it in 'A'..'Z' || it in '0'..'9' || it == '.' || it == '-' || it == '_' }

            private fun isEntityTag(tag: String): Boolean {
                val quoted = if (tag.startsWith("W/")) tag.substring(2) else tag
                return quoted.length in 2..256 && quoted.startsWith("\"") && quoted.endsWith("\"") &&
                    quoted.substring(1, quoted.length - 1).all { it > ' ' && it < '\u007f' && it != '"' }
            }

            /** The stream's bytes, or null past `limit` bytes or past `deadline` (System.nanoTime): a trickle ends too. */
            private fun readAtMost(stream: java.io.InputStream, limit: Int, deadline: Long): ByteArray? {
                val output = java.io.ByteArrayOutputStream()
                val buffer = ByteArray(8192)
                stream.use { input ->
                    var count = input.read(buffer)
                    while (count >= 0) {
                        if (output.size() + count > limit || System.nanoTime() > deadline) return null
                        output.write(buffer, 0, count)
                        count = input.read(buffer)
                    }
                }
                return output.toByteArray()
            }
        }


        """#
}
