import EZCore

/// The workbook's document properties (docProps/core.xml).
///
/// `created` is a calendar date, written as midnight UTC: reports take it from their as-of
/// date, never from the clock, so that the same inputs give byte-identical files.
struct DocumentProperties {
    var title: String
    var subject: String
    var author = "ezreport"
    var company = "EZWallet"
    var keywords = ""
    var comments = ""
    /// The creation (and modification) date recorded in core.xml.
    var created: CivilDate
}
