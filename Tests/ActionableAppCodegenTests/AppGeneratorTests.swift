import ActionableClient
import ActionableClientStandIn
import ActionableCodegen
import ActionableCore
import ActionableLint
import ActionableTestSupport
import Foundation
import Testing
import UserNotifications

/// `--target app`: the files generated from the example categories and from edge cases are
/// compiled here against the UserNotifications stand-in, register their categories, and must
/// register exactly their catalog. Serialized: they share `UNUserNotificationCenter.current()`.
@Suite(.serialized)
struct AppGeneratorTests {
    static let generatedFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Generated/NotificationCategories.swift")

    static func exampleSources() throws -> [SourceCategory] {
        let prefix = CommandLineRunner.repository.path + "/"
        return try Linter().checkedFiles(at: prefix + "Categories").compactMap { file in
            file.category.map { SourceCategory(path: String(file.path.dropFirst(prefix.count)), category: $0) }
        }
    }

    @Test func theCommittedFileIsWhatTheExampleCategoriesGenerate() async throws {
        let generated = try AppGenerator().generate(try Self.exampleSources())
        #expect(
            generated == (try String(contentsOf: Self.generatedFile, encoding: .utf8)),
            "regenerate: actionable generate swift --target app --output \(Self.generatedFile.path)")
        let run = try await CommandLineRunner.run(["generate", "swift", "--target", "app"])
        #expect(run.stdout == generated, "\(run.stderr)")
    }

    static let edgeDirectory = CommandLineRunner.repository.appendingPathComponent("Tests/CodegenFixtures")
    static let edgeFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Generated/EdgeCategories.swift")

    static func edgeSources() throws -> [SourceCategory] {
        let prefix = edgeDirectory.path + "/"
        return try Linter().checkedFiles(at: prefix + "EdgeCategories").compactMap { file in
            file.category.map { SourceCategory(path: String(file.path.dropFirst(prefix.count)), category: $0) }
        }
    }

    @Test func theEdgeCaseFileIsWhatItsCategoriesGenerate() throws {
        let generated = try AppGenerator(options: GenerationOptions(name: "EdgeCategories")).generate(try Self.edgeSources())
        #expect(
            generated == (try String(contentsOf: Self.edgeFile, encoding: .utf8)),
            "regenerate: cd Tests/CodegenFixtures && actionable generate swift EdgeCategories --target app --name EdgeCategories --output ../ActionableAppCodegenTests/Generated/EdgeCategories.swift"
        )
    }

    @Test func retiredCategoriesAndActionsAreLeftOutOfTheAppButNotTheServer() throws {
        let sources = try Self.edgeSources()
        #expect(sources.contains { $0.category.retired })
        #expect(sources.contains { $0.category.actions.contains(where: \.retired) })
        let app = try AppGenerator(options: GenerationOptions(name: "EdgeCategories")).generate(sources)
        #expect(!app.contains("snooze") && !app.contains("Snooze"))
        #expect(!app.contains("retired-survey") && !app.contains("RetiredSurvey"))
        let strings = try StringCatalogGenerator().generate(sources)
        #expect(!strings.contains("snooze") && !strings.contains("Plus tard"))
        let server = try ServerGenerator().generate(sources)
        #expect(server.contains(#"static let snooze: ActionID = "snooze""#))
        #expect(server.contains(#"static let identifier: CategoryID = "retired-survey""#))
    }

    @Test func registerRegistersExactlyTheCatalog() async throws {
        try await Self.check(
            register: { await NotificationCategories.registerAndWait(on: $0) }, catalog: Catalog(try Self.exampleSources().map(\.category)))
    }

    /// `setNotificationCategories` replaces the whole set: register() keeps what another SDK
    /// registered, replaces an older copy of the catalog's own categories by identifier, and sets
    /// the union once — on a center that answers later, as Apple's does.
    @Test func registerKeepsOtherSDKsCategoriesAndReplacesItsOwn() async throws {
        let center = UNUserNotificationCenter.current()
        let other = UNNotificationCategory(identifier: "ONESIGNAL_DYNAMIC", actions: [], intentIdentifiers: [], options: [])
        let stale = UNNotificationCategory(
            identifier: "invite", actions: [UNNotificationAction(identifier: "old", title: "Old", options: [])], intentIdentifiers: [],
            options: [])
        center.setNotificationCategories([other, stale])
        await NotificationCategories.registerAndWait(on: center)
        let registered = await center.notificationCategories()
        #expect(Set(registered.map(\.identifier)) == ["ONESIGNAL_DYNAMIC", "invite", "login-approval", "message", "order-shipped"])
        #expect(registered.filter { $0.identifier == "invite" }.count == 1)
        let invite = try #require(registered.first { $0.identifier == "invite" })
        #expect(!invite.actions.contains { $0.identifier == "old" } && invite.actions.first?.identifier == "accept")
        // A second SDK registering after us keeps ours the same way (the set is read, not replaced blindly).
        let klaviyo = UNNotificationCategory(identifier: "KLAVIYO", actions: [], intentIdentifiers: [], options: [])
        center.setNotificationCategories(registered.union([klaviyo]))
        await NotificationCategories.registerAndWait(on: center)
        #expect(Set(await center.notificationCategories().map(\.identifier)).isSuperset(of: ["ONESIGNAL_DYNAMIC", "KLAVIYO", "invite"]))
        // The merge itself, as the callback form sets it.
        #expect(NotificationCategories.merged(with: [other, stale]).count == 5)
    }

    @Test func everyOptionIconTextInputAndEscapedNameRegisters() async throws {
        let catalog = Catalog(try Self.edgeSources().map(\.category))
        try await Self.check(register: { await EdgeCategories.registerAndWait(on: $0) }, catalog: catalog)
        #expect(EdgeCategories.SignIn2fa.Action.default == "default")
        #expect(EdgeCategories.SignIn2fa.Action.digestRead == "digest.read")
        let payload = try EdgeCategories.EveryOption.Payload(userInfo: ["tags": ["a", 1, true, ["k": nil] as [String: Any?]], "meta": ["x": 1.5]])
        #expect(payload.tags == [.string("a"), .number(1), .bool(true), .object(["k": .null])])
        #expect(payload.meta == ["x": .number(1.5)])
    }

    /// An app that registers the categories the server serves (`GET /v1/categories`, read by
    /// `ActionableClient`) registers what the generated code registers: the same actions in
    /// the same order, options, texts, icons and text fields.
    @Test func theServedCatalogRegistersWhatTheGeneratedCodeRegisters() async throws {
        for catalog in [Catalog(try Self.exampleSources().map(\.category)), Catalog(try Self.edgeSources().map(\.category))] {
            let served = try ServedCatalog(json: Data(catalog.jsonValue.serialized().utf8), languages: ["en"])
            #expect(served.skipped.isEmpty, "\(served.skipped)")
            try await Self.check(
                register: { $0.setNotificationCategories(Set(served.categories.map(\.notificationCategory))) }, catalog: catalog)
        }
    }

    static func check(register: (UNUserNotificationCenter) async -> Void, catalog: Catalog) async throws {
        let center = UNUserNotificationCenter.current()
        center.setNotificationCategories([])
        await register(center)
        let registered = await center.notificationCategories()
        // Retired categories and actions are never registered.
        let live = catalog.categories.filter { !$0.retired }
        #expect(Set(registered.map(\.identifier)) == Set(live.map(\.id.rawValue)))

        for category in live {
            let unCategory = try #require(registered.first { $0.identifier == category.id.rawValue })
            let order =
                category.contexts.default
                + category.registeredActions.map(\.id).filter { !category.contexts.default.contains($0) }
            #expect(unCategory.actions.map(\.identifier) == order.map(\.rawValue))
            #expect(unCategory.options.rawValue == UInt(category.options.rawValue))
            #expect(unCategory.intentIdentifiers == category.intents)
            #expect(unCategory.hiddenPreviewsBodyPlaceholder == (category.hiddenPreviewsBodyPlaceholder?.developmentValue ?? ""))
            #expect(unCategory.categorySummaryFormat == (category.summaryFormat?.developmentValue ?? ""))
            for unAction in unCategory.actions {
                let action = try #require(category.action(ActionID(unAction.identifier)))
                #expect(unAction.title == action.title.developmentValue)
                #expect(unAction.options.rawValue == UInt(action.options.rawValue))
                switch action.icon {
                case .system(let name)?: #expect(unAction.icon?.systemImageName == name)
                case .template(let name)?: #expect(unAction.icon?.templateImageName == name)
                case nil: #expect(unAction.icon == nil)
                }
                let textInput = unAction as? UNTextInputNotificationAction
                #expect((textInput != nil) == (action.input != nil), "\(category.id).\(action.id)")
                if let input = action.input, let textInput {
                    #expect(textInput.textInputButtonTitle == (input.button?.developmentValue ?? "Send"))
                    #expect(textInput.textInputPlaceholder == (input.placeholder?.developmentValue ?? ""))
                }
            }
        }
    }

    @Test func eachCategoryListsItsPayloadKeysAndAnUnknownCategoryHasNone() throws {
        let catalog = try Self.exampleSources()
        for source in catalog {
            #expect(
                NotificationCategories.payloadKeys(ofCategory: source.category.id.rawValue)
                    == Set(source.category.payload.fields.map(\.key)), "\(source.category.id.rawValue)")
        }
        #expect(NotificationCategories.Invite.payloadKeys == ["inviteId", "eventName", "seats"])
        #expect(NotificationCategories.payloadKeys(ofCategory: "unknown") == nil)
        #expect(EdgeCategories.payloadKeys(ofCategory: "invite") == nil)
    }

    @Test func aPayloadIsDecodedFromUserInfoAndAMissingRequiredKeyThrows() throws {
        let userInfo: [AnyHashable: Any] = [
            "aps": ["category": "invite", "alert": "Team dinner"], "actionToken": "t", "inviteId": "inv-42", "seats": 3,
        ]
        let payload = try NotificationCategories.Invite.Payload(userInfo: userInfo)
        #expect(payload.inviteId == "inv-42")
        #expect(payload.seats == 3)
        #expect(payload.eventName == nil)
        #expect(throws: DecodingError.self) {
            _ = try NotificationCategories.Invite.Payload(userInfo: ["aps": ["category": "invite"], "seats": 3])
        }
        #expect(NotificationCategories.Invite.identifier == "invite")
        #expect(NotificationCategories.Invite.Action.accept == "accept")
    }

    @Test func anEmptyCatalogRegistersNoCategory() throws {
        let text = try AppGenerator().generate([])
        #expect(text.contains("public static var all: Set<UNNotificationCategory> {\n        []\n    }"))
        #expect(!text.contains("public enum JSON"))
        let strings = try StringCatalogGenerator().generate([])
        #expect(strings.contains("\"strings\": {}") || strings.contains("\"strings\": {\n  }"), "\(strings)")
    }

    @Test func theStringCatalogHoldsEveryKeyOfTheAppFileInEveryLocale() throws {
        let sources = try Self.exampleSources()
        let text = try StringCatalogGenerator().generate(sources)
        #expect(text == (try StringCatalogGenerator().generate(sources.reversed())))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["version"] as? String == "1.0")
        #expect(json["sourceLanguage"] as? String == "en")
        let strings = try #require(json["strings"] as? [String: [String: Any]])

        // The keys are exactly those the generated app file passes to NSLocalizedString.
        let app = try String(contentsOf: Self.generatedFile, encoding: .utf8)
        let used = Set(
            app.components(separatedBy: "NSLocalizedString(\"").dropFirst().compactMap { $0.components(separatedBy: "\"").first })
        #expect(Set(strings.keys) == used)

        func value(_ key: String, _ locale: String) -> String? {
            let localizations = strings[key]?["localizations"] as? [String: [String: [String: String]]]
            return localizations?[locale]?["stringUnit"]?["value"]
        }
        #expect(value("invite.accept.title", "de") == "Annehmen")
        #expect(value("invite.accept.title", "en") == "Accept")
        #expect(value("invite.hiddenPreviewsBodyPlaceholder", "de") == "%u Einladungen")
        // Every locale of the files, for every string that has one.
        let catalog = Catalog(sources.map(\.category))
        for category in catalog.categories {
            for action in category.actions {
                for locale in action.title.locales {
                    #expect(value(LocalizationKeys.title(category.id, action.id), locale) != nil, "\(category.id).\(action.id) \(locale)")
                }
            }
        }
    }

    @Test func theCommandLineWritesTheStringCatalogBesideTheCode() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await CommandLineRunner.run(
            ["generate", "swift", "--target", "app", "--output", "Categories.swift", "--strings", "Localizable.xcstrings"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let written = try String(contentsOf: directory.appendingPathComponent("Localizable.xcstrings"), encoding: .utf8)
        #expect(written.contains("\"invite.accept.title\""))
        let refused = try await CommandLineRunner.run(["generate", "swift", "--target", "server", "--strings", "x.xcstrings"], in: directory)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--strings goes with --target app"))
    }
}
