import ActionableCore
import Foundation
import Testing

struct CatalogJSONTests {
    @Test func theNormalizedCatalogFillsInEveryDefault() throws {
        let file = CatalogLoader().loadFile(
            path: "c.yaml",
            contents: Array(
                """
                category: c
                actions:
                  - { id: a, title: { de: A-de, en: A-en } }
                  - { id: old, title: Old, retired: true }
                  - { id: r, title: Reply, input: {} }
                payload: { k: string }
                """.utf8))
        let catalog = Catalog([try #require(file.category)])
        #expect(
            catalog.jsonValue.serialized() == """
                {"version":1,"categories":[{"category":"c","options":[],"intents":[],\
                "payload":{"k":{"type":"string","required":false}},\
                "actions":[{"id":"a","title":{"de":"A-de","en":"A-en"},"activation":"background","destructive":false,\
                "authenticationRequired":false,"retired":false},\
                {"id":"old","title":"Old","activation":"background","destructive":false,"authenticationRequired":false,\
                "retired":true},{"id":"r","title":"Reply","activation":"background","destructive":false,\
                "authenticationRequired":false,"input":{"maxLength":1000},"retired":false}],\
                "contexts":{"default":["a","r"],"minimal":["a","r"]},"retired":false}]}
                """)
    }

    @Test func categoriesAreSortedAndTheFirstOfADuplicatePairIsKept() {
        let catalog = Catalog([
            NotificationCategory(id: "zeta"), NotificationCategory(id: "alpha", description: "first"),
            NotificationCategory(id: "alpha", description: "second"),
        ])
        #expect(catalog.categories.map(\.id) == ["alpha", "zeta"])
        #expect(catalog["alpha"]?.description == "first")
        #expect(catalog["missing"] == nil)
        #expect(catalog.suggestion(for: "alpa") == "alpha")
    }

    @Test func theOutputIsValidJSONForFoundationToo() throws {
        let catalog = Catalog([
            NotificationCategory(
                id: "q", description: "a \"quoted\"\nline",
                actions: [
                    NotificationAction(id: "x", title: "X", icon: .template("Img"))
                ])
        ])
        let object = try JSONSerialization.jsonObject(with: Data(catalog.jsonValue.prettySerialized().utf8))
        let categories = try #require((object as? [String: Any])?["categories"] as? [[String: Any]])
        #expect(categories.first?["description"] as? String == "a \"quoted\"\nline")
    }
}
