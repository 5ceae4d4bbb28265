import EZAnalytics
import EZCore
import EZLocale
import EZRenderingTestSupport
@testable import EZPDF
import XCTest

/// A statement reads in its user's language: pdftotext finds the section titles in that language
/// and none of the English ones.
final class PDFLanguageTests: XCTestCase {
    /// The section titles (and the footer's page word) as English writes them.
    static let englishTitles = ["Charts", "Spending by category", "Compared with earlier periods", "Budgets", "Groups",
                                "Savings goals", "Transactions", "About this report"]

    func testEachLanguagesStatementHasItsOwnSectionTitlesAndNoEnglishOnes() throws {
        for locale in ["it_IT", "fr_FR", "es_ES", "de_DE", "ja_JP", "en_US"] {
            let figures = PDFFixtures.statement(locale: locale, transactionCount: 20)
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "statement-\(locale).pdf")
            defer { tools.cleanUp() }
            let text = try tools.text()
            let tr = Translator(locale: locale)
            for english in Self.englishTitles {
                let translated = tr(english)
                XCTAssertTrue(text.contains(translated), "\(locale): '\(translated)' for '\(english)'")
                // A few titles are the same word in some languages ('Budgets' in French and German).
                if tr.language != "en" && translated != english {
                    XCTAssertFalse(text.contains(english), "\(locale): English '\(english)' left in the statement")
                }
            }
            let pages = try XCTUnwrap(Int(try tools.info()["Pages"] ?? ""))
            XCTAssertTrue(text.contains(tr("Page {page} of {pages}", ["page": "1", "pages": String(pages)])), locale)
            if tr.language != "en" { XCTAssertFalse(text.contains("Page 1 of"), "\(locale): English footer") }
            XCTAssertTrue(text.contains(tr("Income and expenses")), "\(locale): a chart's title")
        }
    }

    /// The comparison section in German, from the render fixtures' figures: its title, columns and
    /// the changes in the reader's number format, with no percent where the earlier value is 0.
    func testTheComparisonSectionReadsInTheUsersLanguageWithItsChanges() throws {
        var figures = RenderFixtures.figures()
        figures.user.locale = "de_DE"
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: RenderFixtures.provenance()),
                                      name: "comparison-de.pdf")
        defer { tools.cleanUp() }
        // pdftotext writes no-break spaces as spaces; so does this comparison.
        func plain(_ s: String) -> String { s.replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ") }
        let text = plain(try tools.text())
        let tr = Translator(locale: "de_DE")
        let format = LocaleFormat(locale: "de_DE")
        for label in ["Compared with earlier periods", "Previous period", "A year earlier", "Measure"] {
            XCTAssertTrue(text.contains(tr(label)) || text.contains(tr(label).uppercased()), "'\(tr(label))' in the German statement")
            XCTAssertFalse(text.contains(label) || text.contains(label.uppercased()), "English '\(label)' left in the German statement")
        }
        let c = figures.comparison
        // The columns name the months in German: "SEPT. 2025" and "GGÜ. SEPT. 2025"-like headers.
        for earlier in [c.previous, c.yearAgo] {
            let label = format.monthYearLabel(earlier.end)
            XCTAssertTrue(text.contains(plain(tr("vs {period}", ["period": label]).uppercased())), "'vs \(label)' header in \(text)")
        }
        // Amounts in the table go without their currency, which the note names once.
        // (The note may wrap: compared with every run of spaces and line breaks as one space.)
        func words(_ s: String) -> String { plain(s).split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }
        XCTAssertTrue(words(text).contains(words(tr("Amounts in {currency}  ·  Previous period: {previous}  ·  A year earlier: {yearAgo}",
            ["currency": "EUR", "previous": "\(format.date(c.previous.start)) – \(format.date(c.previous.end))",
             "yearAgo": "\(format.date(c.yearAgo.start)) – \(format.date(c.yearAgo.end))"]))), text)
        // Expenses: 153,48 against 100,00 (+53,48, +53,5 %) and 92,00 a year earlier.
        let expensesChange = "+" + format.decimal(c.expenses.vsPrevious.absolute, fractionDigits: 2) + " (+"
            + format.percent(c.expenses.vsPrevious.percent!) + ")"
        XCTAssertTrue(text.contains(plain(expensesChange)), "\(expensesChange) in \(text)")
        // Income: nothing last month, so the change has no percent.
        XCTAssertNil(c.income.vsPrevious.percent)
        let incomeChange = plain("+" + format.decimal(c.income.vsPrevious.absolute, fractionDigits: 2))
        let line = try XCTUnwrap(text.components(separatedBy: "\n").first { $0.contains(incomeChange) }, text)
        XCTAssertFalse(line.contains(incomeChange + " ("), "no percent against an earlier 0: \(line)")
        XCTAssertTrue(text.contains("Travel"), "a category with expenses only a year earlier is listed")
        let outline = try tools.outlineTitles()
        XCTAssertTrue(outline.contains(tr("Compared with earlier periods")), "a bookmark for the section: \(outline)")
    }

    /// The comparison's column headers name quarters and weeks as people do, in their language
    /// ("Q3 2026", "T3 2026", "KW 39/2026"), never by the machine's name ("2026-Q3", "2026-W39").
    func testComparisonHeadersNameQuartersAndWeeksInTheReadersWords() throws {
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        let cases: [(locale: String, periods: [String], expected: [String])] = [
            ("en_US", ["2026-Q3", "2026-Q2", "2025-Q3"], ["Q3 2026", "VS Q2 2026", "VS Q3 2025"]),
            ("fr_FR", ["2026-Q3", "2026-Q2", "2025-Q3"], ["T3 2026", "T2 2026", "T3 2025"]),
            ("en_US", ["2026-W39", "2026-W38", "2025-W39"], ["WEEK 39, 2026", "VS WEEK 38, 2026", "WEEK 39, 2025"]),
            ("de_DE", ["2026-W39", "2026-W38", "2025-W39"], ["KW 39/2026", "KW 38/2026", "KW 39/2025"]),
        ]
        for c in cases {
            var figures = RenderFixtures.figures()
            figures.user.locale = c.locale
            let periods = try c.periods.map { try Period.parse($0, asOf: asOf) }
            figures.period = periods[0]
            figures.comparison.period = periods[0]
            figures.comparison.previous = periods[1]
            figures.comparison.yearAgo = periods[2]
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: RenderFixtures.provenance()),
                                          name: "headers-\(c.locale)-\(c.periods[0]).pdf")
            defer { tools.cleanUp() }
            let text = try tools.text().replacingOccurrences(of: "\u{00A0}", with: " ")
            let header = try XCTUnwrap(text.split(separator: "\n").first { $0.contains(c.expected[0].uppercased()) },
                                       "\(c.locale) \(c.periods[0]): no header with \(c.expected[0]) in\n\(text)")
            for e in c.expected { XCTAssertTrue(header.contains(e.uppercased()), "\(e) in \(header)") }
            for name in c.periods { XCTAssertFalse(header.contains(name), "the machine's name \(name) in \(header)") }
        }
    }

    /// The cover's first line names the kind of statement: a quarter's used to say "monthly".
    func testTheCoverNamesTheKindOfPeriod() throws {
        let cases: [(period: String, english: String, german: String)] = [
            ("2026-09", "MONTHLY STATEMENT", "MONATSAUSZUG"), ("2026-Q3", "QUARTERLY STATEMENT", "QUARTALSAUSZUG"),
            ("2026", "ANNUAL STATEMENT", "JAHRESAUSZUG"), ("2026-W40", "STATEMENT ·", "AUSZUG ·"),
        ]
        for c in cases {
            for (locale, expected) in [("en_US", c.english), ("de_DE", c.german)] {
                var figures = PDFFixtures.statement(locale: locale, transactionCount: 5)
                figures.period = try Period.parse(c.period, asOf: CivilDate(year: 2026, month: 11, day: 1))
                let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                              name: "cover-\(locale)-\(c.period).pdf")
                defer { tools.cleanUp() }
                let text = try tools.text()
                XCTAssertTrue(text.contains(expected), "\(locale) \(c.period): no '\(expected)'")
                if c.period != "2026-09" {
                    XCTAssertFalse(text.contains(locale == "en_US" ? "MONTHLY STATEMENT" : "MONATSAUSZUG"), "\(locale) \(c.period) says monthly")
                }
            }
        }
    }

    func testAnUnsupportedLanguageGetsEnglishWordsWithItsOwnNumbers() throws {
        let figures = PDFFixtures.statement(locale: "pt_BR", transactionCount: 20)
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                      name: "statement-pt.pdf")
        defer { tools.cleanUp() }
        let text = try tools.text()
        XCTAssertTrue(text.contains("Spending by category"))
        XCTAssertTrue(text.contains(LocaleFormat(locale: "pt_BR").money(figures.kpis.income, figures.currency)))
    }

    func testTheLimitStatusIsNeverShortenedInAnyLanguage() throws {
        for locale in ["it_IT", "fr_FR", "es_ES", "de_DE", "ja_JP", "en_US"] {
            let tr = Translator(locale: locale)
            for (status, words) in [(BudgetStatus.ok, "Within limit"), (.warning, "Close to limit"), (.over, "Limit exceeded")] {
                // A long percentage leaves the status the least room beside it.
                var figures = PDFFixtures.statement(locale: locale, transactionCount: 5, limitStatus: status)
                figures.kpis.limit?.percent = Percent(tenths: 11192)
                let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
                XCTAssertFalse(shortened.contains(tr(words).uppercased()), "\(locale) \(status): '\(tr(words).uppercased())' was cut")
                XCTAssertFalse(shortened.contains(tr("MONTHLY LIMIT")), "\(locale): the limit's title was cut")
            }
        }
    }

    /// A limit used thousands of times over still shows its whole 'n % used' line and its status,
    /// in every language: the line's type gets smaller rather than its word being cut.
    func testAHugeLimitPercentageKeepsItsWholeLine() throws {
        for locale in ["de_DE", "fr_FR", "it_IT", "es_ES", "ja_JP", "en_US"] {
            let tr = Translator(locale: locale)
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 5, limitStatus: .over)
            figures.kpis.limit?.percent = Percent(tenths: 3_834_811)
            let used = tr("{percent} used", ["percent": LocaleFormat(locale: locale).percent(Percent(tenths: 3_834_811))])
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            XCTAssertFalse(shortened.contains(used), "\(locale): '\(used)' was cut")
            XCTAssertFalse(shortened.contains(tr("Limit exceeded").uppercased()), "\(locale): the status was cut")
        }
    }

    /// The limit box's amount was cut with '…' at extreme limits (outside standards test): it
    /// shrinks, then takes its compact form, in every language, never a cut figure.
    func testAHugeLimitAmountIsShownWholeOrCompactNeverCut() throws {
        for locale in ["de_DE", "fr_FR", "it_IT", "es_ES", "ja_JP", "en_US"] {
            for limit: Int64 in [152_912_419_64, 999_999_999_999_999] {
                var figures = PDFFixtures.statement(locale: locale, transactionCount: 5, limitStatus: .ok)
                figures.kpis.limit?.limit = limit
                let format = LocaleFormat(locale: locale)
                let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
                XCTAssertFalse(shortened.contains(format.money(limit, figures.currency)), "\(locale): the limit \(limit) was drawn cut")
            }
        }
    }

    /// A shop's month (4.6 million spent) still shows its whole income, expenses and net in the
    /// cover's tiles, in every language's number format: the figure's type gets smaller, down to
    /// 6 pt, rather than the amount being cut with an ellipsis.
    func testTheCoverTilesNeverShortenAnAmount() throws {
        for locale in ["de_DE", "fr_FR", "it_IT", "en_US", "es_ES"] {
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 5)
            figures.kpis.income = 178_796
            figures.kpis.expenses = 460_177_310
            figures.kpis.net = figures.kpis.income - figures.kpis.expenses
            let format = LocaleFormat(locale: locale)
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            for amount in [figures.kpis.income, figures.kpis.expenses, -figures.kpis.net] {
                let text = format.money(amount, figures.currency)
                XCTAssertFalse(shortened.contains { $0.contains(text) }, "\(locale): '\(text)' was cut")
            }
        }
    }

    /// Amounts of tens of billions (inside the contract's 10^13 minor units) did not fit a tile even
    /// at 6 pt and were cut ('$100,000,002,718…'): such a tile shows the amount's short form.
    func testATileTooNarrowForAnAmountShowsItsShortFormNeverACutOne() throws {
        for locale in ["en_US", "de_DE"] {
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 5)
            figures.kpis.income = 10_000_000_271_845
            figures.kpis.expenses = 9_000_000_000_017
            figures.kpis.net = figures.kpis.income - figures.kpis.expenses
            let format = LocaleFormat(locale: locale)
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            for amount in [figures.kpis.income, figures.kpis.expenses] {
                XCTAssertFalse(shortened.contains { $0.hasPrefix(String(format.money(amount, figures.currency).prefix(6))) },
                               "\(locale): \(shortened)")
            }
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "huge-\(locale).pdf")
            defer { tools.cleanUp() }
            let text = try tools.text()
            XCTAssertTrue(text.contains(format.compactMoney(figures.kpis.income, figures.currency, fractionDigits: 2)), text)
        }
    }

    /// A short form in a language's own words can be too long too ('ریال 127.97 میلیون' at 6 pt):
    /// the tile then takes the short form with as few decimals as it needs, never a cut one.
    func testATileWhoseShortFormIsLongTooTakesItsShorterFormNeverACutOne() throws {
        var figures = PDFFixtures.statement(locale: "fa_IR", transactionCount: 5)
        figures.currency = try Currency("IRR")
        figures.kpis.income = 12_796_728_000
        figures.kpis.expenses = 7_783_921_776
        figures.kpis.net = figures.kpis.income - figures.kpis.expenses
        let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
        XCTAssertFalse(shortened.contains { $0.contains("میلیون") || $0.contains("ریال") }, "\(shortened)")
    }

    /// A shared group expense's full amount, which the table's footnote points readers to, came
    /// after the group and its payer and was cut off with them; it now follows the description.
    func testAGroupSharesFullAmountIsNeverTheCutPart() throws {
        for locale in ["es_ES", "en_GB"] {
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 40)
            let format = LocaleFormat(locale: locale)
            let i = try XCTUnwrap(figures.transactions.firstIndex { !$0.group.isEmpty && $0.amount != $0.counted })
            figures.transactions[i].description = "Tickets"
            figures.transactions[i].group = "Friday dinners with the whole climbing club"
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            let row = figures.transactions[i]
            let full = "Tickets (\(format.money(row.amount, row.currency)))"
            XCTAssertTrue(shortened.contains { $0.hasPrefix(full) } || !shortened.contains { $0.hasPrefix("Tickets") },
                          "\(locale): the amount was cut: \(shortened.filter { $0.hasPrefix("Tickets") })")
        }
    }

    /// A Hebrew description of a group expense took the full amount after it into its own
    /// right-to-left run: the row read "($205.20 ארוחת ערב) · @Home" (outside standards test). The
    /// description is an isolate when the amount and group follow it: on the page, the amount
    /// stands to the right of the whole description, as in every other row.
    func testTheAmountAfterARightToLeftDescriptionStaysAfterIt() throws {
        var figures = PDFFixtures.statement(locale: "en_GB", transactionCount: 40)
        let i = try XCTUnwrap(figures.transactions.firstIndex { !$0.group.isEmpty && $0.amount != $0.counted })
        figures.transactions[i].description = "ארוחת ערב"
        figures.transactions[i].group = "@Home (NYC)"
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()), name: "rtl.pdf")
        defer { tools.cleanUp() }
        let xml = try tools.run("pdftotext", ["-bbox", tools.file.path, "-"]).output
        // Every word with its box: <word xMin="…" yMin="…" xMax="…" yMax="…">text</word>.
        let pattern = try NSRegularExpression(pattern: #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>"#)
        let words = pattern.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)).map { m -> (x0: Double, y: Double, x1: Double, text: String) in
            func group(_ k: Int) -> String { String(xml[Range(m.range(at: k), in: xml)!]) }
            return (Double(group(1))!, Double(group(2))!, Double(group(3))!, group(4))
        }
        let full = LocaleFormat(locale: "en_GB").money(figures.transactions[i].amount, figures.transactions[i].currency)
        // pdftotext gives right-to-left text as words or as single letters, in either order,
        // depending on its version: every Hebrew letter's box is checked.
        let hebrew = words.filter { w in w.text.unicodeScalars.contains { (0x0590...0x05FF).contains($0.value) } }
        let amount = try XCTUnwrap(words.first { w in w.text.contains(full) && hebrew.contains { abs($0.y - w.y) < 2 } },
                                   "the full amount \(full) on the Hebrew words' line: \(hebrew)")
        XCTAssertGreaterThanOrEqual(hebrew.filter { abs($0.y - amount.y) < 2 }.count, 2, "the Hebrew description on the amount's line")
        for word in hebrew where abs(word.y - amount.y) < 2 {
            XCTAssertLessThan(word.x1, amount.x0 + 0.5, "'\(word.text)' ends before the amount \(amount.text) begins")
        }
        let home = try XCTUnwrap(words.first { abs($0.y - amount.y) < 2 && $0.text.contains("Home") }, "the group on the same line")
        XCTAssertTrue(home.text.hasPrefix("@"), "the group's name keeps its order: \(home.text)")
        XCTAssertGreaterThan(home.x0, amount.x1, "the group follows the amount")
    }

    /// A goal saved far past its target (1,415.2 %) still shows its whole percentage beside the
    /// bar, in every language's number format: the bar gives way, not the figure.
    func testAGoalsProgressPercentageIsNeverShortened() throws {
        for locale in ["en_GB", "de_DE", "fr_FR", "it_IT"] {
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 5)
            let saved: Int64 = 13_308_25, target: Int64 = 940_50
            figures.savings[0] = SavingsLine(goalId: 1, name: "New laptop", currency: figures.currency, target: target, saved: saved,
                                             percent: Percent.of(saved, target), dueOn: nil, monthsLeft: nil, monthlyNeeded: nil)
            let label = LocaleFormat(locale: locale).percent(Percent.of(saved, target)!)
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            XCTAssertFalse(shortened.contains(label), "\(locale): '\(label)' was cut")
        }
    }
    /// The savings goals of a Swiss or Italian user whose goals have no due date: the column
    /// titles ("FORTSCHRITT", "AVANZAMENTO") and the goals' names read whole. The dates column
    /// used to take the room for "Kein Fälligkeitsdatum", and the others were cut ("FORTS…",
    /// "Emergen…").
    func testSavingsGoalsWithoutADueDateKeepTheirTitlesAndNamesWhole() throws {
        for locale in ["de_CH", "it_IT", "de_DE", "fr_FR", "es_ES", "en_US"] {
            let tr = Translator(locale: locale)
            var figures = PDFFixtures.statement(locale: locale, transactionCount: 5)
            figures.savings = [("House deposit", 153_600, 153_600), ("Emergency fund", 1_542_828, 1_910_400)].enumerated().map { i, goal in
                SavingsLine(goalId: Int64(i + 1), name: goal.0, currency: figures.currency, target: goal.2, saved: goal.1,
                            percent: Percent.of(goal.1, goal.2), dueOn: nil, monthsLeft: nil, monthlyNeeded: nil)
            }
            let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
            for title in ["Goal", "Saved", "Target", "Progress", "Due", "Per month"] {
                XCTAssertFalse(shortened.contains(tr(title).uppercased()), "\(locale): the column title '\(tr(title))' was cut")
            }
            XCTAssertFalse(shortened.contains("House deposit") || shortened.contains("Emergency fund"), "\(locale): \(shortened)")
        }
    }

    /// The cover's budget highlight counts both numbers in their own plural forms: Italian read
    /// "1 budget superato, 1 vicini al limite" and French "0 proches de la limite" (outside review).
    func testBothBudgetCountsOfTheHighlightTakeTheirOwnPluralForm() {
        let cases: [(String, Int, Int, String)] = [
            ("it_IT", 1, 1, "1 budget superato, 1 vicino al limite"),
            ("it_IT", 2, 3, "2 budget superati, 3 vicini al limite"),
            ("fr_FR", 2, 0, "2 budgets dépassés, 0 proche de la limite"),
            ("fr_FR", 1, 2, "1 budget dépassé, 2 proches de la limite"),
            ("es_ES", 1, 2, "1 presupuesto superado, 2 cerca del límite"),
            ("ja_JP", 1, 2, "予算超過1件、上限間近2件"),
            ("en_US", 1, 2, "1 budget over, 2 close to the limit"),
        ]
        for (locale, over, warning, expected) in cases {
            XCTAssertEqual(StatementLayout.budgetHighlight(over: over, warning: warning, tr: Translator(locale: locale)), expected, locale)
        }
    }
}

