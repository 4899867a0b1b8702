import ActionableCore
import Foundation

/// `actionable generate kotlin`: per category an `object` with its id, its action
/// ids, a `Payload` data class read from an FCM data message's strings (`fromData`) and written
/// back as the typed JSON the tap carries (`toJson`), and `actions(…)`, the
/// `NotificationCompat.Action`s Android shows (the category's `androidActions`), built for the
/// running API level: a text input through `RemoteInput` on a mutable `PendingIntent` (API 31
/// needs `FLAG_MUTABLE` for it), `setAuthenticationRequired` from API 31, the file's semantic
/// action, a foreground action as an activity `PendingIntent` (never a trampoline through a
/// receiver; the activity reports it with `ActionableReports.report`), a background one as a
/// broadcast to `ActionableActionReceiver`, which hands the tap to WorkManager as unique work
/// named by its notification (a report queue that survives process death), posted by
/// `ActionableReportWorker` with the iOS client's final answers.
///
/// The output keeps to what Debian's kotlinc 1.3 accepts.
public struct KotlinGenerator: Sendable {
    /// The Kotlin package of the generated code.
    public var package: String
    /// The app's `R` class (`PACKAGE.R` by default).
    public var rClass: String

    /// A generator writing into `package`, reading resources from `rClass`.
    public init(package: String, rClass: String? = nil) {
        self.package = package
        self.rClass = rClass ?? package + ".R"
    }

    /// A generator writing into `package`, reading resources from `rClass`, both checked: each
    /// segment a Java and Kotlin identifier that is no keyword of either (the package is also the
    /// manifest's class names), so that the code written compiles.
    public init(checkedPackage package: String, rClass: String? = nil) throws(GenerationError) {
        try Self.checkQualifiedName(package, option: "--package", example: "com.example.app")
        if let rClass { try Self.checkQualifiedName(rClass, option: "--r-class", example: "com.example.app.R") }
        self.init(package: package, rClass: rClass)
    }

    /// Kotlin's hard keywords and Java's reserved words: neither may name a package segment.
    static let reservedWords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null", "object",
        "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var", "when", "while",
        "abstract", "assert", "boolean", "byte", "case", "catch", "char", "const", "default", "double", "enum", "extends",
        "final", "finally", "float", "goto", "implements", "import", "instanceof", "int", "long", "native", "new", "private",
        "protected", "public", "short", "static", "strictfp", "switch", "synchronized", "throws", "transient", "void",
        "volatile", "_",
    ]

    static func checkQualifiedName(_ name: String, option: String, example: String) throws(GenerationError) {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for segment in segments {
            let valid =
                segment.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
                && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            if !valid {
                let shown = segment.isEmpty ? "an empty segment" : "\"\(segment)\""
                throw GenerationError(
                    "\(option) \(name): \(shown) is not a Java or Kotlin identifier (a letter or _, then letters, digits or _; "
                        + "no -, no leading digit), e.g. \(example)")
            }
            if reservedWords.contains(segment) {
                throw GenerationError(
                    "\(option) \(name): \"\(segment)\" is a Kotlin or Java keyword and cannot name a package segment; "
                        + "choose another, e.g. \(segment)_app or \(example)")
            }
        }
    }

    /// Every file `generate kotlin --output DIR` writes, by path under DIR, laid out as Gradle
    /// reads a module's `src/main`: `java/<package path>/ActionableNotifications.kt` (the
    /// categories), `java/<package path>/ActionableRuntime.kt` (receiver, reports, workers,
    /// messaging service), `res/values*/strings.xml` and `AndroidManifest.xml` (the receiver,
    /// the messaging service and the permissions, for the manifest merger).
    public func files(_ categories: [SourceCategory]) throws(GenerationError) -> [(path: String, text: String)] {
        let directory = "java/" + package.split(separator: ".").joined(separator: "/")
        var files: [(path: String, text: String)] = [
            (directory + "/ActionableNotifications.kt", try generate(categories)),
            (directory + "/ActionableRuntime.kt", KotlinRuntime.source(package: package)),
            ("AndroidManifest.xml", manifest),
        ]
        files += try AndroidStringsGenerator().generate(categories).map { (path: "res/" + $0.path, text: $0.text) }
        return files
    }

    /// The manifest the merger adds to the app's: the receiver of background taps, the messaging
    /// service (FCM's `MESSAGING_EVENT`), and the permissions the code needs.
    public var manifest: String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <!-- \(Self.generatedMarker) Do not edit: change the category files and generate again. -->
        <manifest xmlns:android="http://schemas.android.com/apk/res/android">
            <uses-permission android:name="android.permission.INTERNET" />
            <uses-permission android:name="android.permission.POST_NOTIFICATIONS" />
            <application>
                <receiver android:name="\(package).ActionableActionReceiver" android:exported="false" />
                <service android:name="\(package).ActionableMessagingService" android:exported="false">
                    <intent-filter>
                        <action android:name="com.google.firebase.MESSAGING_EVENT" />
                    </intent-filter>
                </service>
            </application>
        </manifest>

        """
    }

    /// What every generated file says first, so that the command knows a file it may replace.
    public static let generatedMarker = "Generated by `actionable generate kotlin`."

    /// The Kotlin source of the categories: one object per category, and `ActionableCategories`,
    /// which finds a category's actions and payload by its id.
    public func generate(_ categories: [SourceCategory]) throws(GenerationError) -> String {
        let sorted = try NameCollisions.checkedInOrder(categories).filter { !$0.category.retired }
        var writer = SwiftWriter()
        writer.line("// \(Self.generatedMarker) Do not edit: change the category files and generate again.")
        writer.line("// Sources:")
        for source in sorted.map(\.path).sorted() { writer.line("// - \(source)") }
        writer.line("@file:Suppress(\"unused\", \"RedundantVisibilityModifier\")")
        writer.line()
        writer.line("package \(package)")
        writer.line()
        for name in [
            "android.app.PendingIntent", "android.content.Context", "android.content.Intent", "android.os.Build",
            "androidx.core.app.NotificationCompat", "androidx.core.app.RemoteInput",
        ] {
            writer.line("import \(name)")
        }
        writer.line()
        registry(sorted.map(\.category), into: &writer)
        return writer.text
    }

    /// `ActionableCategories`: each category's object inside it (`ActionableCategories.Invite`, so
    /// that a category named `Message` never meets an app's own `Message` class in the package),
    /// and a category's actions, payload and dismiss by its id, for the messaging service.
    private func registry(_ categories: [NotificationCategory], into writer: inout SwiftWriter) {
        writer.line("/** The categories, each an object of its own (ActionableCategories.Invite), and the categories by id. */")
        writer.block("public object ActionableCategories") { writer in
            for category in categories {
                self.category(category, into: &writer)
                writer.line()
            }
            writer.line("/** The actions of a `category` notification, or null for a category this app does not know. */")
            writer.block(
                "public fun actions(context: Context, category: String, notificationId: String, data: Map<String, String>, activity: Class<*>): List<NotificationCompat.Action>?"
            ) { writer in
                writer.block("return when (category)") { writer in
                    for category in categories {
                        writer.line(
                            "\(Self.objectName(category)).ID -> \(Self.objectName(category)).actions(context, notificationId, data, activity)")
                    }
                    writer.line("else -> null")
                }
            }
            writer.line()
            writer.line("/** The typed payload a tap on a `category` notification sends back, from its data message; null when it does not parse. */")
            writer.block("public fun payloadJson(category: String, data: Map<String, String>): String?") { writer in
                writer.block("return when (category)") { writer in
                    for category in categories {
                        writer.line("\(Self.objectName(category)).ID -> \(Self.objectName(category)).Payload.fromData(data)?.toJson()")
                    }
                    writer.line("else -> null")
                }
            }
            writer.line()
            writer.line("/** Whether dismissing a `category` notification is reported (its customDismissAction option). */")
            let dismissing = categories.filter { $0.options.contains(.customDismissAction) }.map { "\(Self.objectName($0)).ID" }
            if dismissing.isEmpty {
                writer.line("public fun reportsDismiss(category: String): Boolean = false")
            } else {
                writer.line("public fun reportsDismiss(category: String): Boolean = category == \(dismissing.joined(separator: " || category == "))")
            }
        }
    }

    static func objectName(_ category: NotificationCategory) -> String {
        SwiftName.camelCase(category.id.rawValue, capitalizeFirst: true)
    }

    private func category(_ category: NotificationCategory, into writer: inout SwiftWriter) {
        let id = category.id.rawValue
        writer.line("/** \(category.docSummary.replacingOccurrences(of: "*/", with: "*\\/")) */")
        writer.block("public object \(Self.objectName(category))") { writer in
            writer.line("/** The value of `category` in the data message (and `aps.category` on iOS). */")
            writer.line("public const val ID: String = \(Self.literal(id))")
            writer.line()
            writer.line("/** The category's action ids. */")
            writer.block("public object Actions") { writer in
                for action in category.actions {
                    writer.line("public const val \(Self.constant(action.id.rawValue)): String = \(Self.literal(action.id.rawValue))")
                }
            }
            writer.line()
            payload(category.payload, into: &writer)
            writer.line()
            actions(category, into: &writer)
        }
    }

    private func payload(_ schema: PayloadSchema, into writer: inout SwiftWriter) {
        writer.line("/** The category's payload keys, typed. */")
        let parameters = schema.fields.map { field in
            "val \(Self.member(field.key)): \(Self.type(of: field))\(field.required ? "" : " = null")"
        }
        if parameters.isEmpty {
            writer.line("public class Payload {")
        } else {
            writer.line("public data class Payload(")
            for (index, parameter) in parameters.enumerated() { writer.line("    \(parameter)\(index < parameters.count - 1 ? "," : "")") }
            writer.line(") {")
        }
        writer.line("    /** The payload as the JSON object a tap sends back (what the action token's pld binds). */")
        writer.line("    public fun toJson(): String {")
        writer.line("        val fields = ArrayList<String>()")
        for field in schema.fields {
            let name = Self.member(field.key)
            let value: String
            switch field.type {
            case .string: value = "ActionableJson.string(\(name))"
            case .integer, .number, .boolean: value = "\(name).toString()"
            case .object, .array: value = name
            }
            if field.required {
                writer.line("        fields.add(\(Self.literal(Self.jsonKey(field.key))) + \(value))")
            } else {
                writer.line("        if (\(name) != null) fields.add(\(Self.literal(Self.jsonKey(field.key))) + \(value))")
            }
        }
        writer.line("        return fields.joinToString(\",\", \"{\", \"}\")")
        writer.line("    }")
        writer.line()
        writer.line("    public companion object {")
        writer.line(
            "        /** The payload of an FCM data message (values are strings there), or null when a required key is missing or a value does not parse. */"
        )
        writer.line("        public fun fromData(data: Map<String, String>): Payload? {")
        var arguments: [String] = []
        for field in schema.fields {
            let name = Self.member(field.key)
            let raw = "data[\(Self.literal(field.key))]"
            let parsed: String
            switch field.type {
            case .string: parsed = raw
            case .integer: parsed = "\(raw)?.let { it.toLongOrNull() ?: return null }"
            case .number: parsed = "\(raw)?.let { it.toDoubleOrNull() ?: return null }"
            case .boolean: parsed = "\(raw)?.let { when (it) { \"true\" -> true; \"false\" -> false; else -> return null } }"
            case .object, .array: parsed = raw  // kept as its JSON text
            }
            writer.line("            val \(name) = \(parsed)\(field.required ? " ?: return null" : "")")
            arguments.append(name)
        }
        writer.line("            return Payload(\(arguments.joined(separator: ", ")))")
        writer.line("        }")
        writer.line("    }")
        writer.line("}")
    }

    private func actions(_ category: NotificationCategory, into writer: inout SwiftWriter) {
        let id = category.id.rawValue
        writer.line("/**")
        writer.line(" * The actions an Android notification of this category shows (at most three), built for the running API level.")
        writer.line(" * `notificationId` is the notification's id (the action token's), `data` the FCM data message, `activity` the")
        writer.line(" * activity a foreground action opens.")
        writer.line(" */")
        writer.block(
            "public fun actions(context: Context, notificationId: String, data: Map<String, String>, activity: Class<*>): List<NotificationCompat.Action>"
        ) { writer in
            writer.line("val actions = ArrayList<NotificationCompat.Action>()")
            writer.line("// The typed payload the tap sends back: what the action token's pld binds.")
            writer.line("val payload = Payload.fromData(data)?.toJson() ?: \"{}\"")
            for action in category.androidActions {
                let resource = "actionable_\(AndroidStringsGenerator.resourceName(id))_\(AndroidStringsGenerator.resourceName(action.id.rawValue))"
                let icon = action.android?.icon.map { "\(rClass).drawable.\($0)" } ?? "0"
                let foreground = action.activation == .foreground
                writer.block("run") { writer in
                    writer.line(
                        "val intent = ActionableIntents.tap(context, \(foreground ? "activity" : "ActionableActionReceiver::class.java"), ID, \(Self.literal(action.id.rawValue)), notificationId, data[\"actionToken\"], payload)"
                    )
                    if let input = action.input {
                        writer.line("intent.putExtra(ActionableIntents.MAX_LENGTH, \(input.maxLength))")
                    }
                    let mutable = action.input != nil
                    writer.line("val flags = PendingIntent.FLAG_UPDATE_CURRENT or ActionableIntents.\(mutable ? "mutableFlag()" : "immutableFlag()")")
                    writer.line("val requestCode = ActionableIntents.requestCode(notificationId, \(Self.literal(action.id.rawValue)))")
                    writer.line("val pending = PendingIntent.\(foreground ? "getActivity" : "getBroadcast")(context, requestCode, intent, flags)")
                    writer.line(
                        "val builder = NotificationCompat.Action.Builder(\(icon), context.getString(\(rClass).string.\(resource)_title), pending)")
                    if action.input != nil {
                        writer.line(
                            "builder.addRemoteInput(RemoteInput.Builder(ActionableIntents.TEXT).setLabel(context.getString(\(rClass).string.\(resource)_label)).build())"
                        )
                    }
                    if let semantic = action.android?.semanticAction {
                        writer.line("builder.setSemanticAction(NotificationCompat.Action.\(Self.semanticConstant(semantic)))")
                    }
                    writer.line("builder.setShowsUserInterface(\(foreground))")
                    if action.authenticationRequired {
                        writer.line("if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.S) builder.setAuthenticationRequired(true)")
                    }
                    writer.line("actions.add(builder.build())")
                }
            }
            writer.line("return actions")
        }
    }

    static func semanticConstant(_ action: AndroidActionOptions.SemanticAction) -> String {
        var name = "SEMANTIC_ACTION_"
        for character in action.rawValue {
            if character.isUppercase { name += "_" }
            name += character.uppercased()
        }
        return name
    }

    /// A Kotlin string literal (`$` escaped, as Kotlin templates it).
    static func literal(_ text: String) -> String {
        var output = ""
        JSONValue.writeString(text, to: &output)
        return output.replacingOccurrences(of: "$", with: "\\$")
    }

    /// `"key":` as JSON, for `toJson`.
    static func jsonKey(_ key: String) -> String {
        var output = ""
        JSONValue.writeString(key, to: &output)
        return output + ":"
    }

    /// A constant name: `login-approval` → `LOGIN_APPROVAL`.
    static func constant(_ identifier: String) -> String {
        var name = AndroidStringsGenerator.resourceName(identifier).uppercased()
        if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = "_" + name }
        return name
    }

    /// A property name, in backticks when it is a Kotlin keyword.
    static func member(_ identifier: String) -> String {
        let name = SwiftName.camelCase(identifier, capitalizeFirst: false)
        return keywords.contains(name) ? "`\(name)`" : name
    }

    static let keywords: Set<String> = [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null", "object",
        "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var", "when", "while",
    ]

    static func type(of field: PayloadField) -> String {
        let base: String
        switch field.type {
        case .string: base = "String"
        case .integer: base = "Long"
        case .number: base = "Double"
        case .boolean: base = "Boolean"
        case .object, .array: base = "String"  // its JSON text
        }
        return field.required ? base : base + "?"
    }
}
