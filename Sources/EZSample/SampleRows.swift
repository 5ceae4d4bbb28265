import EZCore

/// Writes the planned sample ledger, table by table, in a fixed order.
///
/// Order: users, families, then each user's balances, categories, budgets, savings goals,
/// transactions and logins, then groups with their members, expenses and splits, then the
/// exchange rates. Each user and each group draws from its own random stream.
struct SampleRows {
    let writer: SampleWriter
    var plan: SamplePlan
    let seed: UInt64
    /// (month, day of month, days in month, ISO weekday) of every day of the span.
    let calendar: [(month: Int, day: Int, daysInMonth: Int, weekday: Int)]

    init(writer: SampleWriter, plan: SamplePlan, seed: UInt64) {
        self.writer = writer
        self.plan = plan
        self.seed = seed
        var calendar: [(Int, Int, Int, Int)] = []
        calendar.reserveCapacity(plan.span.days)
        for day in plan.span.first...plan.span.last {
            let date = CivilDate(dayNumber: day)
            let (y, m, d) = date.components
            calendar.append((m, d, CivilDate.daysIn(year: y, month: m), date.isoWeekday))
        }
        self.calendar = calendar
    }

    mutating func writeAll() throws {
        try writeUsers()
        try writeFamilies()
        for index in plan.persons.indices { try writePersonalRows(index) }
        try writeGroups()
        try writeRates()
    }

    // MARK: - Timestamps

    /// The instant `second` seconds into local `day` in `zone`: (UTC seconds, offset seconds).
    @inline(__always)
    func instant(day: Int32, second: Int, zone: ZoneRules) -> (utc: Int64, offset: Int) {
        let local = Int64(day) * 86_400 + Int64(second)
        let offset = zone.offset(atUTCSeconds: local - Int64(zone.offset(atUTCSeconds: local)))
        return (local - Int64(offset), offset)
    }

    /// An occurred-at value in one of the contract's styles (mostly local time with its offset,
    /// some UTC, some with milliseconds; a bare date when `bare`) and a created-at a little later, in UTC.
    func stamps(_ random: inout SampleRandom, day: Int32, second: Int, zone: ZoneRules, bare: Bool)
        -> (occurred: String, created: String) {
        let (utc, offset) = instant(day: day, second: second, zone: zone)
        let created = SampleTimestamp.format(seconds: utc + Int64(random.below(900)), millis: random.below(1000), offset: nil)
        if bare { return (SampleTimestamp.date(day), created) }
        let style = random.below(100)
        let occurred: String
        if style < 80 {
            occurred = SampleTimestamp.format(seconds: utc + Int64(offset), millis: nil, offset: offset)
        } else if style < 87 {
            occurred = SampleTimestamp.format(seconds: utc, millis: nil, offset: nil)
        } else if style < 93 {
            occurred = SampleTimestamp.format(seconds: utc + Int64(offset), millis: random.below(1000), offset: offset)
        } else {
            occurred = SampleTimestamp.format(seconds: utc, millis: random.below(1000), offset: nil)
        }
        return (occurred, created)
    }

    /// A single timestamp at local `day`/`second` in `zone`, with its offset.
    func localStamp(day: Int32, second: Int, zone: ZoneRules) -> String {
        let (utc, offset) = instant(day: day, second: second, zone: zone)
        return SampleTimestamp.format(seconds: utc + Int64(offset), millis: nil, offset: offset)
    }

    /// A random second of the day between `from` and `to` o'clock (never in the 01:00–05:59 window
    /// where clocks change).
    @inline(__always)
    func second(_ random: inout SampleRandom, from: Int, to: Int) -> Int {
        from * 3600 + random.below((to - from) * 3600)
    }

    // MARK: - Users and families

    private mutating func writeUsers() throws {
        var random = SampleRandom(seed: seed, stream: 2)
        for p in plan.persons {
            let region = SampleCatalog.regions[p.region]
            var hash = "$argon2id$v=19$m=65536,t=3,p=4$"
            for _ in 0..<32 { hash.unicodeScalars.append(Unicode.Scalar(SampleCatalog.passwordAlphabet[random.below(16)])) }
            let limit: Int64? = p.overall == .monthlyLimit ? p.price(random.int(8...30) * 10_000) : nil
            let book: String? = random.chance(0.2) ? random.pick(SampleCatalog.bookNames) : nil
            try writer.user(
                id: p.id, username: p.username, email: p.email, passwordHash: hash, role: p.isAdmin ? "admin" : "user",
                currency: p.currency, timezone: region.zone, locale: region.locale, bookName: book,
                monthlyLimitMinor: limit, chartStyle: random.chance(0.3) ? "doughnut" : "pie",
                createdAt: localStamp(day: p.createdDay, second: second(&random, from: 7, to: 23), zone: p.zone),
                deletedAt: p.deletedDay.map { localStamp(day: $0, second: second(&random, from: 7, to: 23), zone: p.zone) },
                statementEmail: Self.wantsStatementEmail(p.id), monthStartDay: Self.monthStartDay(p.id))
        }
    }

    /// About one user in eight has months that start on payday (the 25th, 27th, 15th, 10th or
    /// 28th); a few more say 1 explicitly; everyone else leaves it NULL (calendar months).
    /// Derived from the id alone, like ``wantsStatementEmail(_:)``, so that every other figure of
    /// a sample stays what it was.
    static func monthStartDay(_ id: Int64) -> Int? {
        if id % 8 == 3 { return [25, 27, 15, 10, 28][Int(id / 8) % 5] }
        if id % 13 == 6 { return 1 }
        return nil
    }

    /// About one user in 17 opted out of statement e-mails. Derived from the id alone, not drawn
    /// from the random stream, so every other figure of a sample stays what it was.
    static func wantsStatementEmail(_ id: Int64) -> Bool { id % 17 != 9 }

    private mutating func writeFamilies() throws {
        for family in plan.families {
            let first = plan.persons[family.members[0].index]
            let id = try writer.family(name: family.name,
                                       createdAt: localStamp(day: family.createdDay, second: 20 * 3600, zone: first.zone))
            for member in family.members {
                try writer.familyMember(familyId: id, userId: plan.persons[member.index].id,
                                        role: member.parent ? "parent" : "child")
            }
        }
    }

    // MARK: - Exchange rates

    private func writeRates() throws {
        var day: Int32 = -1
        var text = ""
        for row in SampleRates.rows(first: plan.span.first, last: plan.span.last, seed: seed) {
            if row.day != day { day = row.day; text = SampleTimestamp.date(day) }
            try writer.exchangeRate(day: text, base: row.base, quote: row.quote, rate: row.rate)
        }
    }
}
