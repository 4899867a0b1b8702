import ActionableTestSupport
import Foundation
import Testing

/// `actionable preview`: the catalog preview as one static file.
struct PreviewCommandTests {
    @Test func writesEveryCategoryInEveryLocaleWithDestructiveActionsMarked() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await CommandLineRunner.run(["preview", "Categories", "--output", "preview.html"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("wrote preview.html: 4 categories"))
        let html = try String(contentsOf: directory.appendingPathComponent("preview.html"), encoding: .utf8)
        for id in ["invite", "login-approval", "message", "order-shipped"] { #expect(html.contains(#"id="category-\#(id)""#)) }
        #expect(html.contains(#"data-locale="de""#))
        #expect(html.contains("Ablehnen"))
        #expect(html.contains(#"<li class="action destructive" data-action="decline">"#))
        #expect(html.contains(#"<span class="field">Add a note</span><span class="send">Send</span>"#))
        #expect(html.contains("text.bubble"))
        #expect(!html.contains("<script"))
        let stdout = try await CommandLineRunner.run(["preview", "Categories", "--output", "-"], in: directory)
        #expect(stdout.stdout.contains(#"id="category-invite""#))
    }

    @Test func retiredCategoriesAndActionsAreNotDrawn() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "Categories/invite.yaml":
                "category: invite\nactions:\n  - { id: accept, title: Accept }\n  - { id: maybe, title: Perhaps, retired: true }\n",
            "Categories/survey.yaml": "category: survey\nretired: true\nactions: [{ id: answer, title: Answer }]\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await CommandLineRunner.run(["preview", "Categories", "--output", "-"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"data-action="accept""#))
        #expect(!run.stdout.contains("maybe") && !run.stdout.contains("Perhaps"))
        #expect(!run.stdout.contains("survey"))
    }

    @Test func aCatalogWithLintErrorsIsRefused() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "Categories/bad.yaml": "category: bad\nactions:\n  - { id: a, title: A }\n  - { id: a, title: B }\n"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await CommandLineRunner.run(["preview", "Categories", "--output", "preview.html"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("bad.yaml"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("preview.html").path))
    }
}
