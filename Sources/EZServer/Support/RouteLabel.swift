/// The route a request is logged and counted under: the router's template, completed by the
/// format the path asks for when the template's last segment captures it.
///
/// The statement, CSV, chart and admin routes capture their file as one segment
/// (`/v1/users/{id}/statement/{period}` answers `2026-10.pdf` and `2026-10.xlsx` alike: the
/// router takes one capture name per level), so their template alone would count a PDF and a
/// workbook as one route, and the latency histogram would mix them. The label adds the
/// extension — `/v1/users/{id}/statement/{period}.pdf`, as the API's documents name the route —
/// only when it is one of the formats the server serves, so a client cannot grow the metrics'
/// label set with paths of its own.
enum RouteLabel {
    /// The extensions a label may carry: every format a route serves.
    static let formats: Set<Substring> = ["pdf", "xlsx", "csv", "png", "json"]

    /// The label for a request to `path` that the router matched to `template` (nil when it
    /// matched none).
    static func of(template: String?, path: String) -> String? {
        guard let template, template.hasSuffix("}") else { return template }
        let lastSegment = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = lastSegment.lastIndex(of: ".") else { return template }
        let ext = lastSegment[lastSegment.index(after: dot)...]
        return formats.contains(ext) ? template + "." + ext : template
    }
}
