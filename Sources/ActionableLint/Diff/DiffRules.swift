import ActionableCore

/// Every compatibility rule of `actionable diff`, in the order of the table in docs/categories-lint-diff.md: errors
/// (breaking for installed apps or old backends), then warnings, then information.
public enum DiffRules {
    /// The rules.
    public static let all: [DiffRule] = breaking + visible + safe

    /// The identifiers of ``all``, in order.
    public static let identifiers: [String] = all.map(\.identifier)

    /// The rules of ``all``, keyed by identifier.
    public static let byIdentifier: [String: DiffRule] = Dictionary(uniqueKeysWithValues: all.map { ($0.identifier, $0) })

    /// `actionable diff` as reports describe it.
    public static let tool = ReportTool(
        name: "actionable diff",
        rules: all.map { ReportTool.Rule(identifier: $0.identifier, summary: $0.summary, severity: $0.severity) })

    static let breaking: [DiffRule] = [
        DiffRule(
            identifier: "category_removed",
            summary: "a category removed or renamed without being retired first",
            severity: .error,
            triggering: [
                DiffExample(
                    old: Example(files: [
                        ("invite.yaml", "category: ↓invite\nactions: [{id: accept, title: Accept}]\n"),
                        ("news.yaml", "category: news\n"),
                    ]),
                    new: Example(files: [("news.yaml", "category: news\n")]))
            ],
            nonTriggering: [
                DiffExample(
                    old: Example(files: [
                        ("invite.yaml", "category: invite\nretired: true\n"), ("news.yaml", "category: news\n"),
                    ]),
                    new: Example(files: [("news.yaml", "category: news\n")]))
            ]),
        DiffRule(
            identifier: "action_removed",
            summary: "an action removed or renamed without being retired first",
            severity: .error,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{id: accept, title: Accept}, ↓{id: maybe, title: Maybe}]\n",
                    new: "category: invite\nactions: [{id: accept, title: Accept}]\n"),
                DiffExample(
                    old: "category: invite\nactions: [↓{id: accept, title: Accept}]\n",
                    new: "category: invite\nactions: [{id: accepted, title: Accept}]\n"),
            ],
            nonTriggering: [
                DiffExample(
                    old: "category: invite\nactions: [{id: accept, title: Accept}, {id: maybe, title: Maybe, retired: true}]\n",
                    new: "category: invite\nactions: [{id: accept, title: Accept}]\n")
            ]),
        DiffRule(
            identifier: "payload_key_removed",
            summary: "a payload key removed (old backends still send it, and it is refused)",
            severity: .error,
            triggering: [
                DiffExample(
                    old: "category: invite\npayload: { ↓inviteId: string, eventName: string }\n",
                    new: "category: invite\npayload: { eventName: string }\n")
            ]),
        DiffRule(
            identifier: "payload_key_required",
            summary: "a payload key added as required, or made required",
            severity: .error,
            triggering: [
                DiffExample(
                    old: "category: invite\npayload: { inviteId: string }\n",
                    new: "category: invite\npayload: { inviteId: string, ↓eventId: { type: string, required: true } }\n"),
                DiffExample(
                    old: "category: invite\npayload: { inviteId: string }\n",
                    new: "category: invite\npayload: { inviteId: { type: string, ↓required: true } }\n"),
            ],
            nonTriggering: [
                DiffExample(
                    old: "category: invite\npayload: { inviteId: { type: string, required: true } }\n",
                    new: "category: invite\npayload: { inviteId: { type: string, required: true }, note: string }\n")
            ]),
        DiffRule(
            identifier: "payload_type_changed",
            summary: "a payload key's type changed",
            severity: .error,
            triggering: [
                DiffExample(
                    old: "category: invite\npayload: { inviteId: string, seats: integer }\n",
                    new: "category: invite\npayload: { inviteId: ↓integer, seats: { type: ↓number } }\n")
            ]),
        DiffRule(
            identifier: "max_length_reduced",
            summary: "`maxLength` reduced or newly set, on a payload key or a text input",
            severity: .error,
            triggering: [
                DiffExample(
                    old: """
                        category: invite
                        payload: { inviteId: { type: string, maxLength: 64 }, eventName: string }
                        actions: [{ id: comment, title: Comment, input: { maxLength: 500 } }]

                        """,
                    new: """
                        category: invite
                        payload: { inviteId: { type: string, maxLength: ↓32 }, eventName: { type: string, maxLength: ↓100 } }
                        actions: [{ id: comment, title: Comment, input: { maxLength: ↓140 } }]

                        """)
            ],
            nonTriggering: [
                DiffExample(
                    old: "category: invite\npayload: { inviteId: { type: string, maxLength: 64 } }\n",
                    new: "category: invite\npayload: { inviteId: string }\n")
            ]),
        DiffRule(
            identifier: "custom_dismiss_removed",
            summary: "the `customDismissAction` option removed (dismissals from installed apps are refused)",
            severity: .error,
            triggering: [
                DiffExample(
                    old: "category: invite\noptions: [customDismissAction, allowInCarPlay]\n",
                    new: "category: invite\noptions: ↓[allowInCarPlay]\n"),
                DiffExample(
                    old: "category: invite\noptions: [customDismissAction]\n",
                    new: "↓category: invite\n"),
            ]),
        DiffRule(
            identifier: "input_removed",
            summary: "a text-input action lost its `input` (installed apps still send text, which is refused)",
            severity: .error,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: comment, title: Comment, input: { button: Send } }]\n",
                    new: "category: invite\nactions: [↓{ id: comment, title: Comment }]\n")
            ]),
        DiffRule(
            identifier: "input_added",
            summary: "an action became a text-input action (installed apps send no text)",
            severity: .error,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: comment, title: Comment }]\n",
                    new: "category: invite\nactions: [{ id: comment, title: Comment, ↓input: { button: Send } }]\n")
            ]),
    ]

    static let visible: [DiffRule] = [
        DiffRule(
            identifier: "title_changed",
            summary: "an action's title changed (installed apps show the old one)",
            severity: .warning,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept }]\n",
                    new: "category: invite\nactions: [{ id: accept, title: ↓{ en: Accept, de: Annehmen } }]\n")
            ],
            nonTriggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept, retired: false }]\n",
                    new: "category: invite\nactions: [{ id: accept, title: Yes, retired: true }]\n")
            ]),
        DiffRule(
            identifier: "icon_changed",
            summary: "an action's icon changed, added or removed",
            severity: .warning,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept, icon: { system: checkmark } }, { id: skip, title: Skip }]\n",
                    new:
                        "category: invite\nactions: [{ id: accept, title: Accept, icon: ↓{ template: Tick } }, { id: skip, title: Skip, icon: ↓{ system: xmark } }]\n"
                )
            ]),
        DiffRule(
            identifier: "android_action_changed",
            summary: "an action's Android icon or semantic action changed, added or removed",
            severity: .warning,
            triggering: [
                DiffExample(
                    old: "category: chat\nactions: [{ id: reply, title: Reply, android: { icon: ic_reply } }]\n",
                    new: "category: chat\nactions: [{ id: reply, title: Reply, android: ↓{ icon: ic_reply, semanticAction: reply } }]\n")
            ]),
        DiffRule(
            identifier: "android_actions_changed",
            summary: "the actions an Android notification shows changed (`android.actions`, or the first three)",
            severity: .warning,
            triggering: [
                DiffExample(
                    old:
                        "category: invite\nactions: [{ id: a, title: A }, { id: b, title: B }, { id: c, title: C }, { id: d, title: D }]\nandroid: { actions: [a, b, c] }\n",
                    new:
                        "category: invite\nactions: [{ id: a, title: A }, { id: b, title: B }, { id: c, title: C }, { id: d, title: D }]\nandroid: ↓{ actions: [a, b, d] }\n"
                )
            ],
            nonTriggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: a, title: A }, { id: b, title: B }, { id: c, title: C }, { id: d, title: D }]\n",
                    new:
                        "category: invite\nactions: [{ id: a, title: A }, { id: b, title: B }, { id: c, title: C }, { id: d, title: D }]\nandroid: { actions: [a, b, c] }\n"
                )
            ]),
        DiffRule(
            identifier: "activation_changed",
            summary: "an action's activation changed (foreground opens the app, background does not)",
            severity: .warning,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept, activation: foreground }]\n",
                    new: "category: invite\nactions: [↓{ id: accept, title: Accept }]\n")
            ]),
        DiffRule(
            identifier: "destructive_changed",
            summary: "an action became destructive, or stopped being destructive",
            severity: .warning,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: decline, title: Decline }]\n",
                    new: "category: invite\nactions: [{ id: decline, title: Decline, destructive: ↓true, authenticationRequired: true }]\n")
            ]),
        DiffRule(
            identifier: "authentication_changed",
            summary: "an action's `authenticationRequired` changed",
            severity: .warning,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept, authenticationRequired: true }]\n",
                    new: "category: invite\nactions: [{ id: accept, title: Accept, authenticationRequired: ↓false }]\n")
            ]),
        DiffRule(
            identifier: "input_text_changed",
            summary: "a text input's button or placeholder text changed",
            severity: .warning,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: comment, title: Comment, input: { button: Send, placeholder: Add a note } }]\n",
                    new: "category: invite\nactions: [{ id: comment, title: Comment, input: { button: ↓Post, placeholder: ↓Your note } }]\n")
            ],
            nonTriggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: comment, title: Comment, input: { button: Send } }]\n",
                    new: "category: invite\nactions: [{ id: comment, title: Comment, input: { button: Send, maxLength: 2000 } }]\n")
            ]),
        DiffRule(
            identifier: "minimal_context_changed",
            summary: "an action moved into or out of the `minimal` context",
            severity: .warning,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept }, { id: decline, title: Decline }, { id: maybe, title: Maybe }]\n",
                    new: """
                        category: invite
                        actions: [{ id: accept, title: Accept }, { id: maybe, title: Maybe }, { id: decline, title: Decline }]
                        contexts: { minimal: ↓[accept, maybe] }

                        """),
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept }, { id: decline, title: Decline }]\n",
                    new: "category: invite\nactions: [{ id: new, title: New }, { id: accept, title: Accept }, ↓{ id: decline, title: Decline }]\n"),
            ]),
    ]

    static let safe: [DiffRule] = [
        DiffRule(
            identifier: "category_added",
            summary: "a category added",
            severity: .info,
            triggering: [
                DiffExample(
                    old: Example(files: [("news.yaml", "category: news\n")]),
                    new: Example(files: [("news.yaml", "category: news\n"), ("invite.yaml", "category: ↓invite\n")]))
            ]),
        DiffRule(
            identifier: "action_added",
            summary: "an action added",
            severity: .info,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept }]\n",
                    new: "category: invite\nactions: [{ id: accept, title: Accept }, ↓{ id: maybe, title: Maybe }]\n")
            ]),
        DiffRule(
            identifier: "payload_key_added",
            summary: "an optional payload key added",
            severity: .info,
            triggering: [
                DiffExample(
                    old: "category: invite\npayload: { inviteId: string }\n",
                    new: "category: invite\npayload: { inviteId: string, ↓note: { type: string, required: false } }\n")
            ]),
        DiffRule(
            identifier: "action_retired",
            summary: "an action retired (the safe first step before removing it)",
            severity: .info,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept }, { id: maybe, title: Maybe }]\n",
                    new: "category: invite\nactions: [{ id: accept, title: Accept }, { id: maybe, title: Maybe, ↓retired: true }]\n")
            ]),
        DiffRule(
            identifier: "category_retired",
            summary: "a category retired (the safe first step before removing it)",
            severity: .info,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept }]\n",
                    new: "category: invite\n↓retired: true\nactions: [{ id: accept, title: Accept }]\n")
            ]),
        DiffRule(
            identifier: "unretired",
            summary: "a retired action or category no longer retired (apps register it again from their next version)",
            severity: .info,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept }, { id: maybe, title: Maybe, retired: true }]\n",
                    new: "category: invite\nactions: [{ id: accept, title: Accept }, ↓{ id: maybe, title: Maybe }]\n"),
                DiffExample(
                    old: "category: invite\nretired: true\n",
                    new: "category: ↓invite\n"),
            ]),
        DiffRule(
            identifier: "retired_removed",
            summary: "a retired action or category removed (safe once no supported app version registers it)",
            severity: .info,
            triggering: [
                DiffExample(
                    old: "category: invite\nactions: [{ id: accept, title: Accept }, ↓{ id: maybe, title: Maybe, retired: true }]\n",
                    new: "category: invite\nactions: [{ id: accept, title: Accept }]\n"),
                DiffExample(
                    old: Example(files: [("invite.yaml", "category: ↓invite\nretired: true\n"), ("news.yaml", "category: news\n")]),
                    new: Example(files: [("news.yaml", "category: news\n")])),
            ]),
    ]
}
