import EZAnalytics
import EZCore
import EZLocale
import EZRenderingTestSupport
import XCTest
@testable import EZPDF

/// The admin usage PDF, checked by qpdf, pdfinfo and pdftotext.
final class PDFUsageTests: XCTestCase {
    private func render() throws -> (usage: UsageFigures, tools: PDFToolRunner) {
        let usage = PDFFixtures.usage()
        let tools = try PDFToolRunner(bytes: try UsagePDF.render(usage, provenance: PDFFixtures.provenance()), name: "usage.pdf")
        addTeardownBlock { tools.cleanUp() }
        return (usage, tools)
    }

    func testUsageReportPassesQpdfCheckAndFootersCountItsPages() throws {
        let (_, tools) = try render()
        let check = try tools.qpdfCheck()
        XCTAssertEqual(check.status, 0, check.output)
        let pages = try XCTUnwrap(Int(try tools.info()["Pages"] ?? ""))
        XCTAssertGreaterThanOrEqual(pages, 3)
        XCTAssertLessThanOrEqual(pages, 10)
        let text = try tools.text()
        XCTAssertTrue(text.contains("Page 1 of \(pages)") && text.contains("Page \(pages) of \(pages)"))
    }

    func testMonthByMonthPrintsEveryMonthLabelWhole() throws {
        let (usage, tools) = try render()
        let text = try tools.text()
        let format = LocaleFormat(locale: "en_GB")
        XCTAssertFalse(usage.months.isEmpty)
        // Each row of the table starts with its month, whole ("Nov 2026", never "Nov 20…").
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for m in usage.months {
            let label = format.monthYearLabel(m.month)
            XCTAssertTrue(lines.contains { $0.hasPrefix(label + " ") }, "the row of \(label)")
        }
        XCTAssertFalse(text.contains(" 20…"), "a month label is cut")
    }

    func testSuppressedCellsPrintAsLessThanFiveAndShownOnesAsFormatted() throws {
        let (usage, tools) = try render()
        let text = try tools.text()
        XCTAssertTrue(usage.months.contains { $0.usersDeleted == .suppressed }, "the fixture withholds some cells")
        XCTAssertTrue(text.contains("<5"))
        let f = LocaleFormat(locale: "en_GB")
        let last = try XCTUnwrap(usage.months.last)
        XCTAssertTrue(text.contains(f.integer(Int64(try XCTUnwrap(last.usersTotal.value)))))
        // The volume tile prints in full; the crowded month table in short forms.
        XCTAssertTrue(text.contains(f.money(try XCTUnwrap(last.volume.value), usage.currency)))
        XCTAssertTrue(text.contains(f.compactMoney(try XCTUnwrap(last.volume.value), usage.currency)))
        XCTAssertTrue(text.contains(f.compactMoney(try XCTUnwrap(last.spendP90.value), usage.currency, scaleReference: 0, fractionDigits: 0)))
        for s in ["Month by month", "Top categories", "Groups and families", "Cohort retention", "Travel"] {
            XCTAssertTrue(text.contains(s), s)
        }
    }

    /// The volume tile cut a realistic total with '…': €152,912,419.64 read "€152,912,41…", a
    /// thousandth of itself (outside standards test). It shrinks, then takes its compact form;
    /// never a cut figure.
    func testALargeVolumeIsShownWholeOrCompactNeverCut() throws {
        let f = LocaleFormat(locale: "en_GB")
        for volume: Int64 in [15_291_241_964, 2_038_832_263, 999_999_999_999_999] {
            var usage = PDFFixtures.usage()
            for i in usage.months.indices { usage.months[i].volume = .shown(volume) }   // the tile adds up October alone
            let tools = try PDFToolRunner(bytes: try UsagePDF.render(usage, provenance: PDFFixtures.provenance()), name: "usage-\(volume).pdf")
            defer { tools.cleanUp() }
            let page = try tools.text(firstPage: 1, lastPage: 1)
            let whole = f.money(volume, usage.currency), compact = f.compactMoney(volume, usage.currency)
            XCTAssertTrue(page.contains(whole) || page.contains(compact), "volume \(volume): neither \(whole) nor \(compact) on page 1:\n\(page)")
            // pdftotext reads a cut text's whole /ActualText: what was drawn cut is the composer's to say.
            let cut = try UsagePDF.shortenedTexts(usage, provenance: PDFFixtures.provenance())
            XCTAssertFalse(cut.contains { $0.contains("€") }, "a figure drawn cut: \(cut)")
        }
    }

    func testNothingInTheUsageReportNamesAPerson() throws {
        let (_, tools) = try render()
        let text = try tools.text()
        // The statement fixture's people must never appear in an admin report.
        for name in ["zoë", "hiro.tanaka", "Émilie", "@"] { XCTAssertFalse(text.contains(name), name) }
    }

    /// A quarter's tiles cover the quarter, not its last month: users at its end, the distinct
    /// active users, and the three months' new users, transactions and volume added up, under a
    /// title that shrinks to fit rather than being cut.
    func testAQuartersTilesAddUpItsMonthsAndItsTitleIsWhole() throws {
        var usage = PDFFixtures.usage()
        let last = usage.period.end
        usage.period = Period(kind: .quarter, start: last.startOfMonth.adding(months: -2), end: last)
        usage.activeInPeriod = .shown(4_321)
        let quarter = usage.months.suffix(3)
        let tools = try PDFToolRunner(bytes: try UsagePDF.render(usage, provenance: PDFFixtures.provenance()), name: "q.pdf")
        defer { tools.cleanUp() }
        let firstPage = try tools.text(firstPage: 1, lastPage: 1)
        let f = LocaleFormat(locale: "en_GB")
        let new = quarter.reduce(0) { $0 + $1.usersNew.value! }
        let transactions = quarter.reduce(0) { $0 + $1.transactions.value! }
        let volume = quarter.reduce(Int64(0)) { $0 + $1.volume.value! }
        for figure in [f.integer(Int64(new)), f.integer(Int64(transactions)), f.money(volume, usage.currency), "4,321",
                       f.integer(Int64(quarter.last!.usersTotal.value!))] {
            XCTAssertTrue(firstPage.contains(figure), "tile \(figure) in:\n\(firstPage)")
        }
        XCTAssertTrue(firstPage.contains("Aug 2025 – Oct 2025; nothing in this report identifies a person."), firstPage)
        let title = "EZWallet usage · " + PDFPeriodLabel.label(usage.period, format: f)
        XCTAssertGreaterThan(title.count, 45, "a title that would not fit at full size")
        XCTAssertTrue(firstPage.contains(title), "the whole title \(title) in:\n\(firstPage)")
    }

    /// A sum over months is withheld when one of its months is: shown, it would give away the
    /// withheld month's figure by subtraction.
    func testAQuarterSumWithAWithheldMonthIsWithheld() throws {
        var usage = PDFFixtures.usage()
        let last = usage.period.end
        usage.period = Period(kind: .quarter, start: last.startOfMonth.adding(months: -2), end: last)
        usage.months[10].usersNew = .suppressed
        XCTAssertEqual(UsageLayout.total(usage.periodMonths.map(\.usersNew)), .suppressed)
        XCTAssertEqual(UsageLayout.total(usage.periodMonths.map(\.transactions)),
                       .shown(usage.months.suffix(3).reduce(0) { $0 + $1.transactions.value! }))
        XCTAssertEqual(UsageLayout.total([Guarded<Int64>.shown(.max), .shown(1)]), .suppressed, "an overflowing sum")
    }

    func testTwoUsageRendersAreByteIdentical() throws {
        let a = try UsagePDF.render(PDFFixtures.usage(), provenance: PDFFixtures.provenance())
        let b = try UsagePDF.render(PDFFixtures.usage(), provenance: PDFFixtures.provenance())
        XCTAssertTrue(a == b)
    }
}
