/// The mustache templates of the catalog preview, kept in the source so the binaries carry them.
/// `{{…}}` escapes HTML, so text from category files cannot inject markup.
public enum PreviewTemplates {
    /// The styles of every page: a notification drawn like iOS's expanded notification.
    public static let style = """
        <style>
        :root { color-scheme: light; font-family: -apple-system, "Helvetica Neue", Arial, sans-serif; }
        body { margin: 0; background: #f2f2f7; color: #1c1c1e; }
        header.top { background: #1c1c1e; color: #fff; padding: 12px 24px; display: flex; justify-content: space-between; align-items: center; }
        header.top h1 { font-size: 18px; margin: 0; }
        main { padding: 16px 24px; max-width: 1200px; }
        h2 { font-size: 17px; margin: 24px 0 8px; }
        .category { background: #fff; border-radius: 14px; padding: 12px 16px; margin: 12px 0; }
        .category h3 { margin: 0 0 4px; font-size: 16px; }
        .category p.description { margin: 0 0 8px; color: #636366; font-size: 13px; }
        .locales { display: flex; flex-wrap: wrap; gap: 16px; }
        .locale h4 { margin: 4px 0; font-size: 12px; color: #8e8e93; text-transform: uppercase; }
        .contexts { display: flex; gap: 12px; }
        figure.notification { margin: 0; width: 260px; }
        figure.notification figcaption { font-size: 11px; color: #8e8e93; margin-bottom: 4px; }
        .banner { background: rgba(255,255,255,.9); border: 1px solid #d1d1d6; border-radius: 13px; padding: 10px; display: flex; gap: 8px; align-items: center; }
        .banner .app { width: 22px; height: 22px; border-radius: 5px; background: linear-gradient(#5ac8fa, #007aff); }
        .banner .title { font-weight: 600; font-size: 13px; }
        ul.actions { list-style: none; margin: 6px 0 0; padding: 0; background: rgba(255,255,255,.9); border: 1px solid #d1d1d6; border-radius: 13px; overflow: hidden; }
        ul.actions li { padding: 10px 12px; font-size: 15px; color: #007aff; border-top: 1px solid #e5e5ea; display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 4px; }
        ul.actions li:first-child { border-top: 0; }
        ul.actions li.destructive { color: #ff3b30; }
        ul.actions li .icon { font-size: 11px; color: #636366; }
        ul.actions li .marks { font-size: 11px; color: #8e8e93; }
        ul.actions li .input { flex-basis: 100%; display: flex; gap: 6px; margin-top: 6px; }
        ul.actions li .input .field { flex: 1; border: 1px solid #c7c7cc; border-radius: 16px; padding: 4px 10px; color: #8e8e93; font-size: 13px; }
        ul.actions li .input .send { background: #007aff; color: #fff; border-radius: 16px; padding: 4px 10px; font-size: 13px; }
        ul.actions li.empty { color: #8e8e93; font-style: italic; }
        table { border-collapse: collapse; width: 100%; background: #fff; border-radius: 10px; overflow: hidden; font-size: 13px; }
        th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
        th { background: #fafafa; font-weight: 600; }
        td.error { color: #ff3b30; max-width: 420px; word-break: break-word; }
        .counts { display: flex; gap: 12px; }
        .count { background: #fff; border-radius: 10px; padding: 10px 16px; min-width: 110px; }
        .count .n { font-size: 24px; font-weight: 600; }
        .count.dead .n { color: #ff3b30; }
        .notice { background: #e5f6ea; border-radius: 10px; padding: 8px 12px; }
        .problem { background: #fdecea; border-radius: 10px; padding: 8px 12px; color: #b3261e; }
        button { font: inherit; border: 0; border-radius: 8px; padding: 4px 12px; background: #007aff; color: #fff; cursor: pointer; }
        form.signin { background: #fff; border-radius: 14px; padding: 24px; max-width: 360px; margin: 48px auto; }
        form.signin input { width: 100%; box-sizing: border-box; font: inherit; padding: 8px; margin: 8px 0 16px; border: 1px solid #c7c7cc; border-radius: 8px; }
        svg.chart { background: #fff; border-radius: 10px; display: block; max-width: 100%; height: auto; }
        .legend { display: flex; gap: 14px; margin: 6px 0 0; font-size: 13px; }
        .legend .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
        .counts { flex-wrap: wrap; }
        </style>
        """

    /// The preview itself (a fragment; the data is a ``CatalogPreview``).
    public static let preview = """
        {{#categories}}
        <section class="category" id="category-{{id}}">
          <h3>{{id}}</h3>
          {{#description}}<p class="description">{{description}}</p>{{/description}}
          <div class="locales">
          {{#locales}}
            <div class="locale" data-locale="{{name}}">
              <h4>{{name}}</h4>
              <div class="contexts">
              {{#contexts}}
                <figure class="notification {{name}}" data-context="{{name}}">
                  <figcaption>{{caption}}</figcaption>
                  <div class="banner"><div class="app"></div><div class="title">{{id}}</div></div>
                  <ul class="actions">
                  {{#actions}}
                    <li class="action{{#destructive}} destructive{{/destructive}}" data-action="{{id}}">
                      <span class="label">{{title}}</span>
                      <span class="marks">{{#authenticationRequired}}requires unlock{{/authenticationRequired}}{{#foreground}} ↗ opens the app{{/foreground}}</span>
                      {{#icon}}<span class="icon" title="SF Symbol">◉ {{icon}}</span>{{/icon}}
                      {{#input}}<span class="input"><span class="field">{{placeholder}}</span><span class="send">{{button}}</span></span>{{/input}}
                    </li>
                  {{/actions}}
                  {{^actions}}<li class="empty">no actions</li>{{/actions}}
                  </ul>
                </figure>
              {{/contexts}}
              </div>
            </div>
          {{/locales}}
          </div>
        </section>
        {{/categories}}
        """

    /// The standalone page of `actionable preview`.
    public static let page = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>Notification categories</title>{{> style}}</head>
        <body>
        <header class="top"><h1>Notification categories</h1><span>{{count}} categories</span></header>
        <main>{{> preview}}</main>
        </body></html>
        """
}
