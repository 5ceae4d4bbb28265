import EZCore
import Foundation
import GRDB

/// Writes a deterministic, realistic sample ledger that follows the ledger contract.
///
/// ```swift
/// let summary = try SampleGenerator.generate(
///     to: "samples/ledger.sqlite",
///     options: SampleOptions(users: 50, months: 24, endYear: 2026, endMonth: 9))
/// print(summary.transactions)
/// ```
///
/// The same options always give a byte-identical file: every draw comes from the generator's own
/// seeded PRNG, no clock is read, and rows are written in a fixed order with explicit ids.
/// The file is written under a temporary name in the same folder and moved into place only when
/// complete, so a reader never sees half a ledger; an existing file is never overwritten.
package enum SampleGenerator {
    /// Generates the ledger described by `options` at `path` and returns its row counts.
    ///
    /// - Throws: ``SampleError/fileExists(path:)`` when `path` exists, ``SampleError/invalidOptions(_:)``
    ///   for impossible options, or an I/O or database error with the path and the system's message.
    /// - Complexity: O(users × months); about a minute for 10,000 users × 24 months.
    package static func generate(to path: String, options: SampleOptions) throws -> SampleSummary {
        let span = try validatedSpan(options)
        let manager = FileManager.default
        if manager.fileExists(atPath: path) { throw SampleError.fileExists(path: path) }
        let url = URL(fileURLWithPath: path)
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent("." + url.lastPathComponent + ".partial").path
        for stale in [temp, temp + "-journal"] where manager.fileExists(atPath: stale) {
            try removeFile(stale)
        }

        let summary: SampleSummary
        do {
            summary = try write(to: temp, options: options, span: span)
        } catch let error as DatabaseError {
            try? removeFile(temp)
            throw SampleError.database(path: path, message: error.message ?? "\(error)")
        } catch {
            try? removeFile(temp)
            throw error
        }
        try publish(temp, as: path)
        return summary
    }

    // MARK: - Options

    private static func validatedSpan(_ options: SampleOptions) throws -> SampleSpan {
        guard options.users >= 1, options.users <= 10_000_000 else {
            throw SampleError.invalidOptions("users must be between 1 and 10000000 (got \(options.users))")
        }
        guard options.months >= 1, options.months <= 1200 else {
            throw SampleError.invalidOptions("months must be between 1 and 1200 (got \(options.months))")
        }
        guard (1...12).contains(options.end.month), (1971...9999).contains(options.end.year) else {
            throw SampleError.invalidOptions("end must be a month YYYY-MM between 1971-01 and 9999-12 "
                                             + "(got \(options.end.year)-\(options.end.month))")
        }
        let endMonth = CivilDate(year: options.end.year, month: options.end.month, day: 1)
        let first = endMonth.adding(months: -(options.months - 1))
        guard first.year >= 1971 else {
            throw SampleError.invalidOptions("the first month \(first.year)-\(first.month) is before 1971")
        }
        return SampleSpan(first: first.dayNumber, last: endMonth.endOfMonth.dayNumber)
    }

    // MARK: - Writing

    private static func write(to temp: String, options: SampleOptions, span: SampleSpan) throws -> SampleSummary {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false   // checked by the tests; off for bulk-insert speed
        configuration.label = "EZSample"
        let queue = try DatabaseQueue(path: temp, configuration: configuration)
        let summary = try queue.inDatabase { db -> SampleSummary in
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "PRAGMA cache_size = -131072")
            try db.execute(sql: "BEGIN")
            try db.execute(sql: LedgerSchema.tablesSQL)
            let writer = try SampleWriter(db)
            var rows = SampleRows(writer: writer, plan: SamplePlan(options: options, span: span), seed: options.seed)
            try rows.writeAll()
            try db.execute(sql: LedgerSchema.indexesSQL)
            try db.execute(sql: "COMMIT")
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            return writer.summary
        }
        try queue.close()
        return summary
    }

    /// Moves the finished file into place without ever replacing an existing file: a hard link
    /// fails when the target exists (then the temporary file is removed); where links are not
    /// supported, a rename after a last existence check.
    private static func publish(_ temp: String, as path: String) throws {
        if link(temp, path) == 0 {
            try removeFile(temp)
            return
        }
        let code = errno
        if code == EEXIST {
            try? removeFile(temp)
            throw SampleError.fileExists(path: path)
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            try? removeFile(temp)
            throw SampleError.fileExists(path: path)
        }
        guard rename(temp, path) == 0 else {
            let message = String(cString: strerror(errno))
            try? removeFile(temp)
            throw SampleError.io(path: path, operation: "move the finished ledger to", message: message)
        }
    }

    private static func removeFile(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw SampleError.io(path: path, operation: "remove", message: String(cString: strerror(errno)))
        }
    }
}
