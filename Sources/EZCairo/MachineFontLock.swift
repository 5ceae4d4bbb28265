import Synchronization

/// The one lock under which every use of a font Cairo opens by its path is made: the machine's
/// fonts other than the report fonts (``FontConfiguration``).
///
/// Cairo 1.16 keeps at most ten such font files open and, to open an eleventh, closes one that no
/// thread holds at that instant, without taking that font's lock first: a thread that has just
/// taken it then draws with a closed face (SIGSEGV in FreeType). Laying out or drawing a text
/// ``FontConfiguration/machine`` chose fonts for, and emitting a PDF page or finishing a PDF that
/// such a text was drawn on (Cairo reads the fonts' glyphs and tables then), happen under this lock,
/// so no two threads ever use those fonts at once. Text in the report fonts, whose faces Cairo
/// never closes, is drawn without it: statements in Latin, Greek, Cyrillic or CJK script never
/// wait.
enum MachineFontLock {
    private static let mutex = Mutex(())

    /// Runs `body` under the lock when `needed`, directly otherwise.
    static func run<T: Sendable>(if needed: Bool, _ body: () throws -> T) rethrows -> T {
        guard needed else { return try body() }
        return try mutex.withLock { _ in try body() }
    }
}
