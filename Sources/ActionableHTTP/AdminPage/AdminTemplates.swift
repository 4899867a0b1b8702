/// The admin page's templates (swift-mustache), kept in the source. No JavaScript: every
/// action is a form, and every form carries the session's CSRF token.
enum AdminTemplates {
    static let signIn = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Actionable — sign in</title>{{> style}}</head>
        <body>
        <header class="top"><h1>Actionable</h1></header>
        <main>
        <form class="signin" method="post" action="/admin/session">
          <h2>Operators</h2>
          {{#problem}}<p class="problem" id="problem">{{problem}}</p>{{/problem}}
          <label for="token">Admin token (the server's --admin-token)</label>
          <input id="token" name="token" type="password" autocomplete="current-password" required>
          <button id="sign-in" type="submit">Sign in</button>
        </form>
        </main>
        </body></html>
        """

    static let admin = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Actionable — deliveries</title>{{> style}}</head>
        <body>
        <header class="top"><h1>Actionable</h1>
          {{#csrf}}<form method="post" action="/admin/logout"><input type="hidden" name="csrf" value="{{csrf}}"><button id="sign-out" type="submit">Sign out</button></form>{{/csrf}}
        </header>
        <main>
        {{#notice}}<p class="notice" id="notice">{{notice}}</p>{{/notice}}
        <h2>Deliveries</h2>
        <div class="counts">
        {{#counts}}<div class="count {{state}}" id="count-{{state}}"><div class="n">{{count}}</div><div>{{state}}</div></div>{{/counts}}
        <div class="count" id="outbox-depth"><div class="n">{{outboxDepth}}</div><div>waiting in the outbox</div></div>
        <div class="count" id="oldest-due"><div class="n">{{oldestDue}}</div><div>the oldest due has waited</div></div>
        </div>
        <h2>Taps and deliveries per minute, last 3 hours</h2>
        <p class="note">Every instance's counts, from storage (this one's up to this page).</p>
        {{{timeline}}}
        <h2>Endpoints</h2>
        {{> endpoints}}
        <h2>Dead</h2>
        {{> rows-dead}}
        <h2>Pending</h2>
        {{> rows-pending}}
        <h2>Held</h2>
        <p class="note">Accepted, but no endpoint takes them yet: each waits for an endpoint whose filter takes it.</p>
        {{> rows-held}}
        <h2>Buttons pressed, last 7 days</h2>
        {{^hasTapCharts}}<p class="empty" id="taps-empty">No taps yet.</p>{{/hasTapCharts}}
        {{#tapCharts}}<h3 class="taps">{{category}} <span class="note">{{total}} taps</span></h3>{{{chart}}}{{/tapCharts}}
        <h2>Categories</h2>
        {{> categories}}
        <h2>Catalog preview</h2>
        {{#preview}}{{> preview}}{{/preview}}
        </main>
        </body></html>
        """

    /// A table of deliveries (`list`, shown when `has` is true) with a Retry form each (for
    /// dead ones), their next try (for pending ones) or why they wait (`reason`, for held ones).
    static func rows(_ list: String, has: String, retry: Bool, reason: Bool = false) -> String {
        let header = retry ? "<th>Last error</th><th></th>" : reason ? "<th>Why it waits</th>" : "<th>Next try</th>"
        let cells =
            reason
            ? "<td class=\"error\">{{lastError}}</td>"
            : retry
                ? """
                <td class="error">{{lastError}}</td><td><form method="post" action="/admin/deliveries/{{id}}/retry">\
                <input type="hidden" name="csrf" value="{{csrf}}"><button class="retry" type="submit">Retry</button></form></td>
                """
                : "<td>{{next}}{{#lastError}}<div class=\"error\">{{lastError}}</div>{{/lastError}}</td>"
        return """
            {{^\(has)}}<p class="empty" id="\(list)-empty">None.</p>{{/\(has)}}
            {{#\(has)}}
            <table id="\(list)"><tr><th>Response</th><th>Category.action</th><th>User</th><th>Received</th><th>Attempts</th>\(header)</tr>
            {{#\(list)}}
            <tr data-id="{{id}}"><td><code>{{id}}</code></td><td>{{category}}.{{action}}</td><td>{{user}}</td><td>{{received}}</td><td>{{attempts}}</td>\(cells)</tr>
            {{/\(list)}}
            </table>
            {{/\(has)}}
            """
    }

    /// The endpoints: state, rate, failure streak and the next probe, with a Pause or Resume form.
    static let endpoints = """
        {{^hasEndpoints}}<p class="empty" id="endpoints-empty">None: create one with POST /v1/endpoints, or start with --forward.</p>{{/hasEndpoints}}
        {{#hasEndpoints}}
        <table id="endpoints"><tr><th>Endpoint</th><th>URL</th><th>Filter</th><th>State</th><th>Rate</th><th>Failures in a row</th><th>Next probe</th>\
        <th>Delivered, last hour</th><th>Latency p50 / p99</th><th></th></tr>
        {{#endpoints}}
        <tr data-endpoint="{{id}}"><td><code>{{id}}</code></td><td>{{url}}</td><td>{{filter}}</td>\
        <td class="state {{state}}">{{state}}</td><td>{{rate}}</td><td class="streak">{{failureStreak}}</td><td>{{nextProbe}}</td>\
        <td class="success">{{successRate}}</td><td class="latency">{{latency}}</td>\
        <td><form method="post" action="/admin/endpoints/{{id}}/{{toggle}}"><input type="hidden" name="csrf" value="{{csrf}}">\
        <button class="{{toggle}}" type="submit">{{toggleLabel}}</button></form></td></tr>
        {{/endpoints}}
        </table>
        {{/hasEndpoints}}
        """

    /// The catalog served: since when, its entity tag, a Reload form, and the last reload's
    /// outcome with each problem of a refused one.
    static let categories = """
        <p id="catalog-served">{{categoryCount}} categories, served since {{servedSince}} (ETag <code id="catalog-etag">{{etag}}</code>).</p>
        {{#csrf}}<form method="post" action="/admin/categories/reload"><input type="hidden" name="csrf" value="{{csrf}}">\
        <button id="reload-categories" type="submit">Reload the category files</button></form>{{/csrf}}
        {{#lastReload}}
        <p class="reload {{result}}" id="last-reload">Last reload, {{at}}: {{summary}}</p>
        {{#hasProblems}}<ul class="error" id="reload-problems">{{#problems}}<li><code>{{.}}</code></li>{{/problems}}</ul>{{/hasProblems}}
        {{/lastReload}}
        """
}
