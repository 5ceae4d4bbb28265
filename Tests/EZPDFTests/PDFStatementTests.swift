import EZAnalytics
import EZCore
import EZLocale
import Foundation
import EZRenderingTestSupport
import XCTest
@testable import EZPDF

/// The PDF statement, checked by independent readers: qpdf, pdfinfo, pdftotext and pdftoppm.
final class PDFStatementTests: XCTestCase {
    private static let figures = PDFFixtures.statement()
    /// The fixture's user reads Italian: the statement's words are checked through the catalog.
    private let tr = Translator(locale: PDFStatementTests.figures.user.locale)
    private func footer(_ page: Int, of pages: Int) -> String {
        tr("Page {page} of {pages}", ["page": String(page), "pages": String(pages)])
    }
    private static let rendered: Result<[UInt8], Error> = Result {
        try StatementPDF.render(figures, provenance: PDFFixtures.provenance())
    }

    private func render() throws -> (bytes: [UInt8], tools: PDFToolRunner) {
        let bytes = try Self.rendered.get()
        let tools = try PDFToolRunner(bytes: bytes, name: "statement.pdf")
        addTeardownBlock { tools.cleanUp() }
        return (bytes, tools)
    }

    func testStatementPassesQpdfCheck() throws {
        let (_, tools) = try render()
        let check = try tools.qpdfCheck()
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertTrue(check.output.contains("No syntax or stream encoding errors found"), check.output)
    }

    func testTextCarriesTheKPIFiguresAsTheReaderFormatsThem() throws {
        let (_, tools) = try render()
        let text = try tools.text()
        let f = LocaleFormat(locale: "it_IT")
        let k = Self.figures.kpis
        XCTAssertTrue(text.contains(f.money(k.income, .eur)), "income \(f.money(k.income, .eur))")
        XCTAssertTrue(text.contains(f.money(k.expenses, .eur)), "expenses")
        XCTAssertTrue(text.contains(f.money(k.net, .eur)), "net")
        XCTAssertTrue(text.contains(f.percent(try XCTUnwrap(k.savingsRate))), "savings rate")
        XCTAssertTrue(text.contains(f.percent(try XCTUnwrap(k.expensesChange.percent))), "change")
        // it_IT writes euros with a comma and the symbol after: never the '.'-decimal form.
        XCTAssertTrue(text.contains(",") && text.contains(" €"))
    }

    func testFootersCountThePagesTheDocumentReallyHas() throws {
        let (_, tools) = try render()
        let pages = try XCTUnwrap(Int(try tools.info()["Pages"] ?? ""))
        let text = try tools.text()
        XCTAssertTrue(text.contains(footer(1, of: pages)), footer(1, of: pages))
        XCTAssertTrue(text.contains(footer(pages, of: pages)))
        XCTAssertFalse(text.contains(footer(pages + 1, of: pages)))
        // Each page's text carries exactly its own footer.
        let pageTexts = text.split(separator: "\u{0C}", omittingEmptySubsequences: true)
        for (i, page) in pageTexts.enumerated() where !page.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            XCTAssertTrue(page.contains(footer(i + 1, of: pages)), "page \(i + 1)")
        }
    }

    func testTransactionTableRunsOverPagesWithItsHeaderRepeated() throws {
        let (_, tools) = try render()
        let pages = try XCTUnwrap(Int(try tools.info()["Pages"] ?? ""))
        // 164 rows at 15 pt cannot fit fewer than three pages of A4 besides the cover and sections.
        XCTAssertGreaterThanOrEqual(pages, 5)
        XCTAssertLessThanOrEqual(pages, 14)
        let text = try tools.text()
        let continued = text.components(separatedBy: tr("{title} (continued)", ["title": tr("Transactions")])).count - 1
        XCTAssertGreaterThanOrEqual(continued, 2)
        // The header's 'DESCRIPTION' column title is printed once per page the table is on.
        XCTAssertEqual(text.components(separatedBy: tr("Description").uppercased()).count - 1, continued + 1)
        XCTAssertTrue(text.contains(tr.plural("{count} row", "{count} rows", count: Self.figures.transactions.count)))
    }

    func testSectionsHaveTitlesAndBookmarks() throws {
        let (_, tools) = try render()
        let text = try tools.text()
        let sections = [tr("Spending by category"), tr("Budgets"), tr("Groups"), tr("Family · {name}", ["name": "Famiglia Rossi"]),
                        tr("Savings goals"), tr("Transactions"), tr("About this report")]
        for s in sections { XCTAssertTrue(text.contains(s), s) }
        let outline = try tools.outlineTitles()
        for s in [tr("Overview")] + sections { XCTAssertTrue(outline.contains(s), "bookmark \(s) in \(outline)") }
        XCTAssertTrue(outline.contains("Viaggio a Kyōto 🗾"), "a group's bookmark under Groups")
    }

    func testNamesInAnyScriptSurviveIntoTheText() throws {
        let (_, tools) = try render()
        let text = try tools.text()
        for s in ["Casa Rossi", "zoë.łukasiewicz", "日本食", "מכולת", "シェアハウス", "Émilie Côté", "Crème brûlée"] {
            XCTAssertTrue(text.contains(s), s)
        }
    }

    func testAnOverrideInANameDoesNotTurnTheFiguresAfterItBackwards() throws {
        // A RIGHT-TO-LEFT OVERRIDE (U+202E) in a username turned the rest of the header line, the
        // period's dates, backwards; in a category name it would turn the highlight's percentage.
        var figures = Self.figures
        figures.user.username = "\u{202E}evil"
        figures.user.bookName = "\u{202E}Book"
        figures.categories.rows[0].name = "\u{202E}Food"
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()), name: "override.pdf")
        defer { tools.cleanUp() }
        let cover = try tools.text(firstPage: 1, lastPage: 1)
        let f = LocaleFormat(locale: figures.user.locale)
        let dates = f.date(figures.period.start) + " – " + f.date(figures.period.end)
        XCTAssertTrue(cover.contains(dates), "the header's dates read forwards: \(dates)\n\(cover)")
        let percent = f.percent(figures.categories.rows[0].percent)
        let highlight = tr("Largest category: {name} ({percent} of expenses)", ["name": "", "percent": percent])
        let after = String(highlight[highlight.range(of: "(")!.lowerBound...])
        XCTAssertTrue(cover.contains(after), "the highlight's percentage reads forwards: \(after)\n\(cover)")
        let footer = try tools.text(firstPage: 2, lastPage: 2)
        XCTAssertTrue(footer.contains(footerTitlePeriod(figures)), footer)
    }

    /// A ledger's names have no length limit: a 1,000,000-character category name took a
    /// statement 106 s and 467 MB, and cut to 1,000 characters it still took 18 lines of the
    /// cover's one-line highlights. The highlight names 60 characters of it; the PDF's title
    /// (the book's name) keeps 1,000, and the statement is whole.
    func testAHugeNameIsCutInTheCoverHighlightAndTheTitle() throws {
        var figures = Self.figures
        figures.categories.rows[0].name = String(repeating: "G", count: 1_000_000)
        figures.user.bookName = String(repeating: "B", count: 1_000_000)
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()), name: "huge-name.pdf")
        defer { tools.cleanUp() }
        XCTAssertEqual(try tools.qpdfCheck().status, 0)
        let cover = try tools.text(firstPage: 1, lastPage: 1).replacingOccurrences(of: "\n", with: "")
        XCTAssertTrue(cover.contains(String(repeating: "G", count: 59) + "…"), cover)
        XCTAssertFalse(cover.contains(String(repeating: "G", count: 61)), "more of the name than a line holds")
        let title = try XCTUnwrap(try tools.info()["Title"])
        XCTAssertLessThanOrEqual(title.count, 1_000, "the title holds the whole book name")
        XCTAssertTrue(title.hasPrefix(String(repeating: "B", count: 900)), title.prefix(40) + "…")
    }

    /// The comparison's headers are in capitals, and were made so without the reader's language:
    /// a Turkish reader's "Eki 2025" read "EKI 2025" (dotless I) beside the cover's "EKİ 2025".
    func testTheComparisonsHeadersTakeTheReadersCapitals() throws {
        var figures = Self.figures
        figures.user.locale = "tr_TR"
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()), name: "turkish.pdf")
        defer { tools.cleanUp() }
        let text = try tools.text()
        let month = LocaleFormat(locale: "tr_TR").monthYearLabel(figures.period.end)
        XCTAssertTrue(month.lowercased().hasPrefix("eki"), month)
        XCTAssertTrue(text.contains(month.uppercased(with: Locale(identifier: "tr_TR"))), text)
        XCTAssertFalse(text.contains(month.uppercased()), "a header in capitals without the reader's rules: \(text)")
    }

    /// The footer's "· Statement {period}" after the book's name, in the reader's language.
    private func footerTitlePeriod(_ figures: StatementFigures) -> String {
        let title = tr("{book} · Statement {period}", ["book": "", "period": "@"])
        return String(title[title.range(of: "·")!.lowerBound..<title.range(of: "@")!.lowerBound])
    }

    func testMetadataComesFromTheFiguresNotTheClock() throws {
        let (_, tools) = try render()
        let info = try tools.info()
        XCTAssertEqual(info["Author"], "ezreport")
        XCTAssertEqual(info["Title"], "Casa Rossi — Bilancio 🏠 — Estratto conto ott 2025")
        XCTAssertTrue(info["Subject"]?.contains("2025-10") == true)
        XCTAssertTrue(info["CreationDate"]?.contains("2025") == true, info["CreationDate"] ?? "none")
        XCTAssertTrue(info["CreationDate"]?.contains("Oct 31") == true, info["CreationDate"] ?? "none")
    }

    func testFontsAreEmbedded() throws {
        let (_, tools) = try render()
        let fonts = try tools.run("pdffonts", [tools.file.path]).output
        let lines = fonts.split(separator: "\n").dropFirst(2)
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            let cols = line.split(separator: " ", omittingEmptySubsequences: true)
            // Columns: name type [encoding] emb sub uni object ID → 'emb' is the 5th from the end.
            XCTAssertEqual(cols[cols.count - 5], "yes", String(line))
        }
    }

    /// CJK names come from the TrueType fallback, which Cairo subsets glyph by glyph, not from
    /// Noto Sans CJK, whose whole CFF outline table Cairo would copy for every such statement.
    func testCJKTextIsEmbeddedFromTheTrueTypeFallback() throws {
        let (_, tools) = try render()
        let fonts = try tools.run("pdffonts", [tools.file.path]).output
        XCTAssertTrue(fonts.contains("DroidSansFallback"), fonts)
        XCTAssertFalse(fonts.contains("NotoSansCJK"), fonts)
    }

    func testTwoRendersAreByteIdentical() throws {
        let a = try StatementPDF.render(Self.figures, provenance: PDFFixtures.provenance())
        let b = try StatementPDF.render(PDFFixtures.statement(), provenance: PDFFixtures.provenance())
        XCTAssertEqual(a.count, b.count)
        XCTAssertTrue(a == b, "two renders of the same figures differ")
    }

    func testUSAndCanadianReadersGetLetterOthersA4() throws {
        let us = try PDFToolRunner(bytes: try StatementPDF.render(PDFFixtures.statement(locale: "en_US", currency: try Currency("USD")),
                                                                   provenance: PDFFixtures.provenance()), name: "statement-en_US.pdf")
        defer { us.cleanUp() }
        XCTAssertTrue(try us.info()["Page size"]?.hasPrefix("612 x 792") == true)
        let usText = try us.text()
        let k = PDFFixtures.statement(locale: "en_US", currency: try Currency("USD")).kpis
        XCTAssertTrue(usText.contains(LocaleFormat(locale: "en_US").money(k.income, try Currency("USD"))))
        XCTAssertTrue(usText.contains("$"))

        let (_, it) = try render()
        let size = try it.info()["Page size"] ?? ""
        XCTAssertTrue(size.hasPrefix("595.276 x 841.89"), size)
    }

    func testHeaderBandShowsTheMonthlyLimitStatus() throws {
        func bandColor(_ status: BudgetStatus) throws -> (r: Int, g: Int, b: Int) {
            let bytes = try StatementPDF.render(PDFFixtures.statement(limitStatus: status), provenance: PDFFixtures.provenance())
            let tools = try PDFToolRunner(bytes: bytes)
            defer { tools.cleanUp() }
            // Page 1 at 10 dpi as a binary PPM; sample a pixel in the band's left margin.
            let ppmBase = tools.folder.appendingPathComponent("p").path
            XCTAssertEqual(try tools.run("pdftoppm", ["-r", "10", "-f", "1", "-l", "1", tools.file.path, ppmBase]).status, 0)
            let file = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: tools.folder.path).first { $0.hasSuffix(".ppm") })
            let ppm = [UInt8](try Data(contentsOf: tools.folder.appendingPathComponent(file)))
            // Header "P6\n<w> <h>\n255\n": skip three newlines.
            var newlines = 0, i = 0
            while newlines < 3 { if ppm[i] == 10 { newlines += 1 }; i += 1 }
            let pixel = i + (2 * 82 + 2) * 0 + 3 * 2  // row 0, column 2
            return (Int(ppm[pixel]), Int(ppm[pixel + 1]), Int(ppm[pixel + 2]))
        }
        let over = try bandColor(.over), warning = try bandColor(.warning), ok = try bandColor(.ok)
        XCTAssertGreaterThan(over.r, over.g + 60, "red band when over the limit: \(over)")
        XCTAssertGreaterThan(warning.r, warning.b + 60, "amber band when close: \(warning)")
        XCTAssertGreaterThan(warning.g, over.g + 20, "amber is not red: \(warning) vs \(over)")
        XCTAssertGreaterThan(ok.g, ok.r + 40, "green band when within the limit: \(ok)")
    }

    func testAQuietMonthStillRendersAndSaysThereIsNothing() throws {
        let bytes = try StatementPDF.render(PDFFixtures.emptyStatement(), provenance: PDFFixtures.provenance())
        let tools = try PDFToolRunner(bytes: bytes, name: "statement-empty.pdf")
        defer { tools.cleanUp() }
        XCTAssertEqual(try tools.qpdfCheck().status, 0)
        let text = try tools.text()
        XCTAssertTrue(text.contains("No transactions in this period."))
        XCTAssertTrue(text.contains("No budgets cover this period."))
        XCTAssertFalse(text.contains("Groups"), "no groups section for a user in no group")
        XCTAssertFalse(text.contains("Family"), "no family section for a non-parent")
        XCTAssertTrue(text.contains("Page 1 of"))
    }

    func testAMonthFromPaydayIsTitledByItsDates() throws {
        var figures = PDFFixtures.statement(locale: "en_GB", transactionCount: 12)
        figures.period = try Period.parse("2026-10", asOf: figures.asOf).startingMonths(onDay: 25)
        let bytes = try StatementPDF.render(figures, provenance: PDFFixtures.provenance())
        let tools = try PDFToolRunner(bytes: bytes, name: "statement-payday.pdf")
        defer { tools.cleanUp() }
        let text = try tools.text()
        XCTAssertTrue(text.contains("25 Sep – 24 Oct 2026"), "the month is named by its dates")
    }

    /// A budget whose window is not the period (a year's travel budget in October's statement)
    /// is named with its window's dates, and the reader sees them whole in every language: in
    /// Japanese the end date used to be cut ("Travel · 2026/01/01 – 2026/…"). A label too long
    /// for its column takes more lines; the row grows.
    func testABudgetsNameAndWindowAreNeverCutOff() throws {
        let cases: [(locale: String, name: String)] = [
            ("ja_JP", "Travel"), ("de_DE", "Urlaub"), ("en_US", "Travel and trips"),
            ("de_DE", "Reisen, Ausflüge, Ferienlager und Wochenenden mit der ganzen Familie"),
            ("ja_JP", "家族旅行と週末のお出かけと夏休みのキャンプと冬のスキー旅行"),
        ]
        for c in cases {
            var figures = PDFFixtures.statement(locale: c.locale, transactionCount: 5)
            let year = try Period.parse("2026", asOf: figures.asOf)
            figures.budgets[1].categoryName = c.name
            figures.budgets[1].windowStart = year.start
            figures.budgets[1].windowEnd = year.end
            let window = LocaleFormat(locale: c.locale).dateRange(year.start, year.end)
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            XCTAssertFalse(shortened.contains { $0.contains(window) || $0.contains(c.name) }, "\(c.locale): '\(c.name) · \(window)' was cut: \(shortened)")
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "statement-budget-window-\(c.locale).pdf")
            defer { tools.cleanUp() }
            // Rows of several lines still make a valid document.
            XCTAssertEqual(try tools.qpdfCheck().status, 0)
        }
    }

    /// Beside the monthly limit's box, a long username left the cover no room for the period:
    /// "benjamin.macdonald18 · 1 Oct 2026 – 31 Oct …". The line takes smaller type, and past that
    /// the username is cut, never the dates.
    func testTheCoverKeepsThePeriodWholeBesideTheLimitBox() throws {
        for (locale, username) in [("en_CA", "benjamin.macdonald18"), ("de_DE", "benjamin.macdonald18.familienkonto.zweitgerät")] {
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 5, limitStatus: .warning)
            figures.user.username = username
            let format = LocaleFormat(locale: locale)
            let dates = "\(format.date(figures.period.start)) – \(format.date(figures.period.end))"
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            XCTAssertFalse(shortened.contains { $0.contains(dates) }, "\(locale): the period was cut: \(shortened)")
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "cover-\(locale).pdf")
            defer { tools.cleanUp() }
            XCTAssertTrue(try tools.text(firstPage: 1, lastPage: 1).replacingOccurrences(of: "\u{00A0}", with: " ")
                .contains(dates.replacingOccurrences(of: "\u{00A0}", with: " ")), "\(locale): the period on the cover")
        }
    }

    /// A group expense's line in the transactions ends with who paid ("… · Viaggio a Kyōto 🗾,
    /// pagato da hiro.tanaka"): it takes more lines (up to six) rather than being cut, and the
    /// table still runs over its pages with every row once.
    func testAGroupExpensesLineTakesMoreLinesRatherThanLosingItsPayer() throws {
        for locale in ["it_IT", "de_DE", "en_US", "ja_JP"] {
            let figures = PDFFixtures.statement(locale: locale, transactionCount: 164)
            let shared = figures.transactions.filter { !$0.paidBy.isEmpty }
            XCTAssertFalse(shared.isEmpty)
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            // The fixture's group lines run to 330–370 pt in a description column of ~106 pt (its
            // names and amounts are long); only the one made to be too long for any page is cut.
            let cutPayers = shortened.filter { $0.contains("hiro.tanaka") && !$0.contains("must be cut") }
            XCTAssertEqual(cutPayers, [], "\(locale): a payer was cut")
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "group-lines-\(locale).pdf")
            defer { tools.cleanUp() }
            XCTAssertEqual(try tools.qpdfCheck().status, 0)
            let text = try tools.text()
            for row in figures.transactions where row.kind != .transfer {
                XCTAssertTrue(text.contains(String(row.description.prefix(4))), "\(locale): row \(row.id)")
            }
        }
    }

    /// A group expense the reader paid says so in their language ("paid by hiro.tanaka (you)"),
    /// as the group's members table does; someone else's keeps the bare name.
    func testTheReadersOwnGroupPaymentSaysYou() throws {
        for (locale, mine) in [("en_US", "paid by hiro.tanaka (you)"), ("de_DE", "bezahlt von hiro.tanaka (Sie)")] {
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 30)
            let shared = figures.transactions.indices.filter { !figures.transactions[$0].paidBy.isEmpty }
            XCTAssertGreaterThan(shared.count, 1)
            figures.transactions[shared[0]].paidByReader = true
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "paid-by-you-\(locale).pdf")
            defer { tools.cleanUp() }
            // pdftotext -layout spreads a wrapped line's words over columns: one space between words.
            let text = try tools.text().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(text.contains(mine), "\(locale): \(text)")
            let you = String(mine.split(separator: " ").last!)
            XCTAssertEqual(text.components(separatedBy: "hiro.tanaka " + you).count - 1, 1, "\(locale): only the reader's own row says so")
        }
    }

    /// The comparison's six columns of figures did not fit the page for ordinary amounts in
    /// German and French (€10.00 last month, €5,000.00 now: "+4.990,00 (+49.900,0 …"), and the
    /// amounts themselves were cut past ten million ("12,345,678…"). The table now takes smaller
    /// type (down to 6 pt) and every figure is drawn whole.
    func testTheComparisonTakesSmallerTypeRatherThanCutAFigure() throws {
        for (locale, previous, current) in [("de_DE", Int64(1_000), Int64(500_000)), ("fr_FR", 1_000, 500_000),
                                            ("en_US", 100_000, 1_234_567_890)] {
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 5)
            figures.comparison.expenses = ComparedAmount(current: current, previous: previous, yearAgo: 1_500)
            figures.comparison.net = ComparedAmount(current: 300_000 - current, previous: -previous, yearAgo: -1_500)
            let format = LocaleFormat(locale: locale)
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            let change = format.decimal(current - previous, fractionDigits: 2)
            XCTAssertFalse(shortened.contains { $0.contains(change) || $0.contains(format.decimal(current, fractionDigits: 2)) },
                           "\(locale): a figure of the comparison was cut: \(shortened)")
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "comparison-\(locale).pdf")
            defer { tools.cleanUp() }
            XCTAssertEqual(try tools.qpdfCheck().status, 0)
        }
    }

    /// A parent's family table listed each child's top three categories in one line, cut with
    /// '…' ("Shopping 34 %, Eating out 31 %, Snac…"): the line now takes more lines, breaking
    /// between categories, never between a name and its share.
    func testAChildsTopCategoriesTakeMoreLinesRatherThanBeingCut() throws {
        for locale in ["it_IT", "de_DE", "ja_JP"] {
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 5)
            let shares: [(String, Int64)] = [("Ristoranti e bar con gli amici", 412), ("Abbigliamento e scarpe", 305), ("Videogiochi e abbonamenti", 283)]
            figures.family!.children[0].categories = shares.map { name, tenths in
                CategoryShare(name: name, count: 1, amount: tenths, percent: Percent(tenths: tenths), color: "#4E79A7")
            }
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            XCTAssertFalse(shortened.contains { $0.contains("Videogiochi") }, "\(locale): the top categories were cut: \(shortened)")
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "family-top-\(locale).pdf")
            defer { tools.cleanUp() }
            XCTAssertEqual(try tools.qpdfCheck().status, 0)
            // In pdftotext's layout a name that takes two lines has the other columns between its
            // halves; its last word and its share are on one line.
            let text = try tools.text().replacingOccurrences(of: "\u{00A0}", with: " ")
            let format = LocaleFormat(locale: locale)
            for (name, tenths) in shares {
                let tail = "\(name.split(separator: " ").last!) \(format.wholePercent(Percent(tenths: tenths)))"
                    .replacingOccurrences(of: "\u{00A0}", with: " ")
                XCTAssertTrue(text.contains(tail), "\(locale): '\(tail)' is not in the text whole")
                XCTAssertTrue(text.contains(String(name.split(separator: " ").first!)), "\(locale): '\(name)'")
            }
        }
    }

    /// A parent whose only child's account breaks the contract read "No children in this family
    /// yet", while the manifest named the child's row (outside audit): the family section now
    /// says how many children are left out, with or without others shown.
    func testAFamilyWithAChildLeftOutSaysSoRatherThanNoChildren() throws {
        for keepOne in [false, true] {
            var figures = PDFFixtures.statement(locale: "en_GB", transactionCount: 5)
            figures.family!.children = keepOne ? [figures.family!.children[0]] : []
            figures.family!.childrenLeftOut = 1
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "family-left-out-\(keepOne).pdf")
            defer { tools.cleanUp() }
            let text = try tools.text().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertTrue(text.contains("1 child's figures are left out: their account breaks the ledger contract"), text)
            XCTAssertFalse(text.contains("No children in this family yet"), text)
            XCTAssertEqual(text.contains("luca.rossi"), keepOne)
        }
    }

    func testTheGroupSectionListsThePeriodsSettleUpPayments() throws {
        var figures = PDFFixtures.statement(locale: "en_GB", transactionCount: 12)
        let payment = GroupPaymentLine(paymentId: 41, date: CivilDate(year: 2026, month: 10, day: 12), fromUserId: 8,
                                       fromUsername: "bob.settler", toUserId: figures.user.id, toUsername: figures.user.username, amount: 4_250)
        try XCTSkipIf(figures.groups.isEmpty, "the fixture has no group")
        figures.groups[0].payments = [payment]
        let bytes = try StatementPDF.render(figures, provenance: PDFFixtures.provenance())
        let tools = try PDFToolRunner(bytes: bytes, name: "statement-payments.pdf")
        defer { tools.cleanUp() }
        let text = try tools.text()
        XCTAssertTrue(text.contains("Settle-up payments"), "the section's heading")
        XCTAssertTrue(text.contains("bob.settler"))
        XCTAssertTrue(text.contains("12 Oct 2026"))
        XCTAssertTrue(text.contains(LocaleFormat(locale: "en_GB").money(4_250, figures.groups[0].currency)))
    }
}
