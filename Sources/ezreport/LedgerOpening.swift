import ArgumentParser
import EZLedger
import EZPostgres
import Foundation

/// `--db` as a ledger: a SQLite file, or a PostgreSQL server for a `postgres://` URL.
extension LedgerOptions {
    /// Whether `--db` names a PostgreSQL server.
    var isPostgres: Bool { PostgresLocation.isURL(db) }

    /// The PostgreSQL location of `--db` (its password from `--db-password-file` or `PGPASSWORD`).
    func location() throws(LedgerError) -> PostgresLocation {
        var location = try PostgresLocation(url: db, password: PostgresLocation.password(file: dbPasswordFile, url: db))
        location.passwordFile = dbPasswordFile
        return location
    }

    /// Opens the ledger `--db` names (a new connection each call); a bad PostgreSQL URL or
    /// password file is reported (``fail(_:)``) as a clean exit-1 error.
    func opener() throws -> @Sendable () throws -> any LedgerStore {
        do { return try unreportedOpener() } catch { throw fail(error) }
    }

    /// ``opener()``, its error thrown as it is, for a caller that reports it its own way;
    /// `lockTimeoutSeconds` bounds a PostgreSQL read's wait for a table lock (see
    /// ``PostgresLocation/lockTimeoutSeconds``), `answerTimeoutSeconds` its wait for any answer
    /// (see ``PostgresLocation/answerTimeoutSeconds``; nil keeps the default).
    func unreportedOpener(lockTimeoutSeconds: Int? = nil, answerTimeoutSeconds: Int? = nil) throws(LedgerError)
        -> @Sendable () throws -> any LedgerStore {
        guard isPostgres else {
            let path = db
            return { try Ledger(path: path) }
        }
        var location = try location()
        location.lockTimeoutSeconds = lockTimeoutSeconds
        if let answerTimeoutSeconds { location.answerTimeoutSeconds = answerTimeoutSeconds }
        let configured = location
        return { try PostgresLedger(location: configured) }
    }

    /// The ledger opened now, or a clean exit-1 error.
    func open() throws -> any LedgerStore {
        do { return try opener()() } catch let error as ExitStatus { throw error } catch { throw fail(error) }
    }

    /// What provenance names the ledger's content by: a SQLite file's SHA-256; for PostgreSQL
    /// nothing here (a run names its snapshot by the WAL position in its manifest).
    func digest() throws -> String {
        isPostgres ? "" : try ledgerDigest(db)
    }
}
