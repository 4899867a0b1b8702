import ActionableCore
import ActionableStore
import Foundation

/// The admin page's charts, drawn on the server as inline SVG (no script, no CDN: the page's
/// Content-Security-Policy allows neither): a line per series over the last minutes, and bars of
/// counts. Every figure is also an attribute (`data-series`, `data-total`, `data-count`) and a
/// `<title>`, so that it can be read without the picture.
enum AdminCharts {
    /// One line of a chart: its name, colour and a value per minute.
    struct Line {
        var name: String
        var color: String
        var values: [Int64]
    }

    /// A chart of `lines` over the minutes from `start` (one value each), `width` × `height`.
    static func lines(_ lines: [Line], start: ActivityMinute, id: String, width: Int = 720, height: Int = 200) -> String {
        let left = 44
        let bottom = 22
        let top = 10
        let count = max(lines.map(\.values.count).max() ?? 0, 2)
        let highest = max(lines.flatMap(\.values).max() ?? 0, 1)
        let plotWidth = Double(width - left - 8)
        let plotHeight = Double(height - top - bottom)
        func x(_ index: Int) -> Double { Double(left) + plotWidth * Double(index) / Double(count - 1) }
        func y(_ value: Int64) -> Double { Double(top) + plotHeight * (1 - Double(value) / Double(highest)) }
        var svg = """
            <svg id="\(XMLText.escaped(id))" class="chart" role="img" viewBox="0 0 \(width) \(height)" width="\(width)" height="\(height)" \
            xmlns="http://www.w3.org/2000/svg">
            """
        for fraction in [0.0, 0.5, 1.0] {
            let value = Int64((Double(highest) * fraction).rounded())
            let lineY = format(y(value))
            svg += "<line x1=\"\(left)\" x2=\"\(width - 8)\" y1=\"\(lineY)\" y2=\"\(lineY)\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(left - 4)\" y=\"\(lineY)\" font-size=\"10\" text-anchor=\"end\" dominant-baseline=\"middle\">\(value)</text>"
        }
        let end = start.advanced(by: Int64(count - 1))
        svg += "<text x=\"\(left)\" y=\"\(height - 6)\" font-size=\"10\">\(clock(start))</text>"
        svg += "<text x=\"\(width - 8)\" y=\"\(height - 6)\" font-size=\"10\" text-anchor=\"end\">\(clock(end)) UTC</text>"
        for line in lines {
            let total = line.values.reduce(0, +)
            let points = line.values.enumerated().map { "\(format(x($0.offset))),\(format(y($0.element)))" }.joined(separator: " ")
            svg += """
                <polyline data-series="\(XMLText.escaped(line.name))" data-total="\(total)" fill="none" stroke="\(XMLText.escaped(line.color))" \
                stroke-width="1.5" points="\(points)"><title>\(XMLText.escaped(line.name)): \(total)</title></polyline>
                """
        }
        svg += "</svg>"
        let legend = lines.map { line in
            "<span class=\"key\"><span class=\"swatch\" style=\"background:\(XMLText.escaped(line.color))\"></span>\(XMLText.escaped(line.name)) "
                + "<b>\(line.values.reduce(0, +))</b></span>"
        }.joined()
        return svg + "<div class=\"legend\">\(legend)</div>"
    }

    /// Horizontal bars, one per `(label, count)`, longest first as given.
    static func bars(_ bars: [(label: String, count: Int64)], id: String, width: Int = 520) -> String {
        let rowHeight = 20
        let labelWidth = 200
        let height = max(bars.count, 1) * rowHeight + 4
        let highest = max(bars.map(\.count).max() ?? 0, 1)
        var svg = """
            <svg id="\(XMLText.escaped(id))" class="chart" role="img" viewBox="0 0 \(width) \(height)" width="\(width)" height="\(height)" \
            xmlns="http://www.w3.org/2000/svg">
            """
        for (index, bar) in bars.enumerated() {
            let top = index * rowHeight + 2
            let length = max(1, Int(Double(width - labelWidth - 60) * Double(bar.count) / Double(highest)))
            svg += """
                <g data-action="\(XMLText.escaped(bar.label))" data-count="\(bar.count)"><title>\(XMLText.escaped(bar.label)): \(bar.count)</title>\
                <text x="\(labelWidth - 6)" y="\(top + 13)" font-size="11" text-anchor="end">\(XMLText.escaped(bar.label))</text>\
                <rect x="\(labelWidth)" y="\(top + 2)" width="\(length)" height="\(rowHeight - 6)" fill="#3b6fd6"/>\
                <text x="\(labelWidth + length + 4)" y="\(top + 13)" font-size="11">\(bar.count)</text></g>
                """
        }
        return svg + "</svg>"
    }

    /// `HH:mm` of a minute, in UTC.
    static func clock(_ minute: ActivityMinute) -> String {
        let ofDay = ((minute.value % 1440) + 1440) % 1440
        return String(format: "%02d:%02d", ofDay / 60, ofDay % 60)
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

}
