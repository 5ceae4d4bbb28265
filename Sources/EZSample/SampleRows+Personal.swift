import EZCore

/// A recurring charge (subscription) and the next day it is due.
private struct Recurring {
    var description: String
    var euroCents: Int
    var everyDays: Int
    var next: Int32
}

/// A trip abroad: its days and the currency paid in.
private struct Trip {
    var first: Int32
    var last: Int32
    var currency: String
}

extension SampleRows {
    // MARK: - One user's own rows

    /// Writes `index`'s balances, categories, budgets, savings goals, transactions and logins.
    mutating func writePersonalRows(_ index: Int) throws {
        var p = plan.persons[index]
        var random = SampleRandom(seed: seed, stream: 1_000 + UInt64(p.id))
        let createdAt = localStamp(day: p.createdDay, second: 12 * 3600, zone: p.zone)

        // Balances.
        let it = p.italianNames
        func addBalance(_ slot: SampleBalanceSlot, _ name: String, _ kind: String, _ euroCents: Int) throws {
            p.balanceIds[slot.rawValue] = try writer.balance(userId: p.id, name: name, kind: kind, currency: p.currency,
                                                            openingMinor: euroCents == 0 ? 0 : p.price(euroCents),
                                                            createdAt: createdAt, deletedAt: nil)
        }
        try addBalance(.main, it ? "Conto principale" : "Main", "default", random.below(3) == 0 ? 0 : random.int(0...300_000))
        try addBalance(.cash, it ? "Contanti" : "Wallet", "cash", random.int(0...20_000))
        if p.isChild {
            try addBalance(.allowance, it ? "Paghetta" : "Allowance", "allowance", random.int(0...5_000))
            if random.chance(0.3) { try addBalance(.savings, it ? "Salvadanaio" : "Piggy bank", "savings", random.int(0...10_000)) }
        } else {
            if random.chance(0.85) { try addBalance(.card, it ? "Carta" : "Card", "card", 0) }
            try addBalance(.bank, it ? "Banca" : "Bank account", "bank", random.int(50_000...1_500_000))
            if random.chance(0.7) { try addBalance(.savings, it ? "Risparmi" : "Savings", "savings", random.int(0...2_000_000)) }
        }
        if random.chance(0.05) || p.id == 2 {   // user 2 always has one, so every sample does
            let gone = plan.span.clamp(p.createdDay + Int32(random.int(30...300)))
            _ = try writer.balance(userId: p.id, name: "Old card", kind: "card", currency: p.currency, openingMinor: 0,
                                   createdAt: createdAt, deletedAt: localStamp(day: gone, second: 10 * 3600, zone: p.zone))
        }

        // Categories: 8–14, 'Others' always present and last.
        var spends: [SampleSpend]
        if p.isChild {
            spends = SampleSpend.child
        } else {
            spends = SampleSpend.adultCore
            var optional = SampleSpend.adultOptional
            for k in stride(from: optional.count - 1, to: 0, by: -1) { optional.swapAt(k, random.below(k + 1)) }
            let extra = p.paysAllowances.isEmpty ? random.int(0...6) : random.int(0...5)
            spends += optional.prefix(extra)
            if !p.paysAllowances.isEmpty { spends.append(.kids) }
        }
        spends.append(.others)
        for (position, spend) in spends.enumerated() {
            p.categoryIds[spend.rawValue] = try writer.category(
                userId: p.id, name: p.italianNames ? spend.italian : spend.english,
                color: random.chance(0.05) && spend != .others ? nil : spend.color,
                important: spend == .housing || spend == .groceries || spend == .school, position: position, deletedAt: nil)
        }
        // Some users had a 'Coffee' category they later deleted; rows filed under it count as 'Others'.
        var deletedCategory: (id: Int64, until: Int32)?
        if !p.isChild, random.chance(0.1) || p.id == 3 {
            let until = plan.span.clamp(max(p.createdDay, plan.span.first) + Int32(random.int(20...200)))
            let id = try writer.category(userId: p.id, name: "Coffee", color: "#6D4C41", important: false,
                                         position: spends.count, deletedAt: localStamp(day: until, second: 21 * 3600, zone: p.zone))
            deletedCategory = (id, until)
        }

        guard let active = p.activeDays(in: plan.span) else {
            plan.persons[index] = p
            return
        }
        try writeBudgets(&p, &random, active: active)
        try writeGoals(p, &random)
        if p.isChild {
            try writeChildTransactions(p, &random, active: active)
        } else {
            try writeAdultTransactions(p, &random, active: active, deletedCategory: deletedCategory)
        }
        try writeLogins(p, &random, active: active)
        plan.persons[index] = p
    }

    // MARK: - Budgets and goals

    private func writeBudgets(_ p: inout SamplePerson, _ random: inout SampleRandom, active: ClosedRange<Int32>) throws {
        let firstMonth = CivilDate(dayNumber: active.lowerBound).startOfMonth
        let start = SampleTimestamp.date(firstMonth.dayNumber)
        if p.overall == .budgetRow {
            try writer.budget(userId: p.id, categoryId: nil, period: "month", amountMinor: p.price(random.int(8...30) * 10_000),
                              currency: p.currency, startsOn: start, endsOn: nil)
        }
        let candidates: [(SampleSpend, Int)] = p.isChild
            ? [(.snacks, 2_000), (.games, 3_000)]
            : [(.groceries, 40_000), (.eatingOut, 15_000), (.transport, 10_000), (.shopping, 15_000), (.entertainment, 8_000)]
        var budgeted: [Int64] = []
        if random.chance(p.isChild ? 0.5 : 0.6) {
            let wanted = p.isChild ? 1 : random.int(2...4)
            for (spend, typical) in candidates where budgeted.count < wanted {
                let category = p.categoryIds[spend.rawValue]
                guard category != 0 else { continue }
                budgeted.append(category)
                let amount = p.price(typical * random.int(70...130) / 100)
                let months = CivilDate(dayNumber: active.lowerBound).days(to: CivilDate(dayNumber: active.upperBound)) / 30
                if months >= 4, random.chance(0.25) {
                    // Revised once: the first budget ends at a month's end, a new amount starts the next day.
                    let change = firstMonth.adding(months: random.int(1...(months - 2)))
                    try writer.budget(userId: p.id, categoryId: category, period: "month", amountMinor: amount,
                                      currency: p.currency, startsOn: start,
                                      endsOn: SampleTimestamp.date(change.dayNumber - 1))
                    try writer.budget(userId: p.id, categoryId: category, period: "month",
                                      amountMinor: amount * Int64(random.int(80...125)) / 100,
                                      currency: p.currency, startsOn: SampleTimestamp.date(change.dayNumber), endsOn: nil)
                } else {
                    try writer.budget(userId: p.id, categoryId: category, period: "month", amountMinor: amount,
                                      currency: p.currency, startsOn: start, endsOn: nil)
                }
            }
        }
        if !p.isChild, random.chance(0.1), p.categoryIds[SampleSpend.eatingOut.rawValue] != 0 {
            let monday = CivilDate(dayNumber: active.lowerBound).startOfISOWeek
            try writer.budget(userId: p.id, categoryId: p.categoryIds[SampleSpend.eatingOut.rawValue], period: "week",
                              amountMinor: p.price(random.int(30...80) * 100), currency: p.currency,
                              startsOn: SampleTimestamp.date(monday.dayNumber), endsOn: nil)
        }
        if !p.isChild, random.chance(0.1) {
            let january = CivilDate(year: CivilDate(dayNumber: active.lowerBound).year, month: 1, day: 1)
            try writer.budget(userId: p.id, categoryId: p.categoryIds[SampleSpend.travel.rawValue], period: "year",
                              amountMinor: p.price(random.int(10...40) * 10_000), currency: p.currency,
                              startsOn: SampleTimestamp.date(january.dayNumber), endsOn: nil)
        }
        // Budget moved between two budgeted categories for one month, now and then.
        if budgeted.count >= 2 {
            var month = firstMonth
            while month.dayNumber <= active.upperBound {
                if random.chance(0.15) {
                    let from = random.below(budgeted.count)
                    let to = (from + 1 + random.below(budgeted.count - 1)) % budgeted.count
                    let day = max(month.dayNumber, active.lowerBound) + Int32(random.below(10))
                    try writer.budgetTransfer(userId: p.id, from: budgeted[from], to: budgeted[to],
                                              amountMinor: p.price(random.int(10...60) * 100),
                                              periodStart: SampleTimestamp.date(month.dayNumber),
                                              createdAt: localStamp(day: min(day, active.upperBound), second: second(&random, from: 8, to: 22), zone: p.zone))
                }
                month = month.adding(months: 1)
            }
        }
    }

    private func writeGoals(_ p: SamplePerson, _ random: inout SampleRandom) throws {
        let savings = p.balanceIds[SampleBalanceSlot.savings.rawValue]
        guard savings != 0 else { return }
        if p.isChild {
            try writer.savingsGoal(userId: p.id, name: "New bike", targetMinor: p.price(random.int(150...400) * 100),
                                   currency: p.currency, balanceId: savings, dueOn: nil)
            return
        }
        for _ in 0..<random.int(1...2) {
            let due: String? = random.chance(0.7)
                ? SampleTimestamp.date(plan.span.first + Int32(random.int(90...(plan.span.days + 720)))) : nil
            try writer.savingsGoal(userId: p.id, name: random.pick(SampleCatalog.goalNames),
                                   targetMinor: p.price(random.int(10...200) * 10_000), currency: p.currency,
                                   balanceId: savings, dueOn: due)
        }
    }

    // MARK: - Transactions

    /// Writes one of the user's own rows.
    private func row(_ p: SamplePerson, _ random: inout SampleRandom, day: Int32, second: Int, bare: Bool,
                     kind: String, spend: SampleSpend?, categoryId: Int64? = nil, balance: Int64, toBalance: Int64? = nil,
                     amount: Int64, currency: String? = nil, method: String?, description: String?,
                     recurrence: Int? = nil, deletable: Bool = false) throws {
        let (occurred, created) = stamps(&random, day: day, second: second, zone: p.zone, bare: bare)
        var deleted: String?
        if deletable, random.chance(0.004) {
            let (utc, _) = instant(day: day + Int32(random.int(1...20)), second: second, zone: p.zone)
            deleted = SampleTimestamp.format(seconds: utc, millis: nil, offset: nil)
        }
        let category = categoryId ?? spend.map { p.categoryIds[$0.rawValue] }
        _ = try writer.transaction(userId: p.id, balanceId: balance, categoryId: category == 0 ? nil : category,
                                   groupId: nil, kind: kind, toBalanceId: toBalance, amountMinor: amount,
                                   currency: currency ?? p.currency, occurredAt: occurred, method: method,
                                   description: description, recurrenceDays: recurrence, createdAt: created, deletedAt: deleted)
    }

    /// How a purchase is paid: (balance id, method).
    private func payment(_ p: SamplePerson, _ random: inout SampleRandom) -> (Int64, String?) {
        let card = p.balanceIds[SampleBalanceSlot.card.rawValue]
        let main = p.balanceIds[SampleBalanceSlot.main.rawValue]
        let r = random.below(100)
        if r < 55 { return card != 0 ? (card, "card") : (main, "card") }
        if r < 80 { return (p.balanceIds[SampleBalanceSlot.cash.rawValue], "cash") }
        if r < 90 { return (main, "apple pay") }
        return (main, nil)
    }

    private func season(_ month: Int) -> Double {
        switch month {
        case 12: return 1.35
        case 7, 8: return 1.2
        case 1: return 0.85
        default: return 1
        }
    }

    /// An adult's transactions over `active`, a day at a time: salary, savings, rent, utilities,
    /// subscriptions, allowances paid, everyday spending, cash withdrawals and trips abroad.
    ///
    /// One function on purpose, like ``SamplePlan/init(options:span:)``: each day's random draws
    /// must stay in this exact order, or every sample ledger (and the tests built on them) changes;
    /// split into steps, that order would be spread over several places.
    private func writeAdultTransactions(_ p: SamplePerson, _ random: inout SampleRandom, active: ClosedRange<Int32>,
                                        deletedCategory: (id: Int64, until: Int32)?) throws {
        let bank = p.balanceIds[SampleBalanceSlot.bank.rawValue]
        let main = p.balanceIds[SampleBalanceSlot.main.rawValue]
        let cash = p.balanceIds[SampleBalanceSlot.cash.rawValue]
        let savings = p.balanceIds[SampleBalanceSlot.savings.rawValue]
        let card = p.balanceIds[SampleBalanceSlot.card.rawValue]
        let salaryDay = [27, 1, 15, 25, 28][random.below(5)]
        let rentDay = random.int(1...5)
        let rent: Int? = random.chance(0.85) ? p.salaryCents * random.int(25...40) / 100 : nil
        let utilitiesDay = random.int(10...20)
        let savingRate = random.int(5...15)
        var subscriptions: [Recurring] = []
        func subscribe(_ chance: Double, _ name: String, _ cents: Int, _ every: Int, _ random: inout SampleRandom) {
            guard random.chance(chance) else { return }
            subscriptions.append(Recurring(description: name, euroCents: cents, everyDays: every,
                                           next: active.lowerBound + Int32(random.below(every))))
        }
        subscribe(0.8, "Netflix", 1299, 30, &random)
        subscribe(0.6, "Spotify", 1099, 30, &random)
        subscribe(0.25, "Yoga class", 1500, 7, &random)
        subscribe(0.5, ["Amazon Prime", "Car insurance", "Domain renewal"][random.below(3)], [4990, 36_000, 1500][random.below(3)], 365, &random)
        let others = SampleRates.currencies.filter { $0 != p.currency }
        var trips: [Trip] = []
        var day = active.lowerBound
        while day < active.upperBound {
            // About 1.5 trips a year, more in summer.
            let gap = Int32(random.int(120...360))
            let start = day + gap
            let month = CivilDate(dayNumber: start).month
            let first = (month == 7 || month == 8 || random.chance(0.6)) ? start : start + Int32(random.int(0...40))
            let last = first + Int32(random.int(2...7))
            if last <= active.upperBound { trips.append(Trip(first: first, last: last, currency: random.pick(others))) }
            day = last
        }
        var trip = 0
        let optional = SampleSpend.adultOptional.filter { p.categoryIds[$0.rawValue] != 0 }
        let eatingOutByWeekday = [0.06, 0.06, 0.07, 0.08, 0.18, 0.28, 0.2]
        let groceriesByWeekday = [0.14, 0.14, 0.15, 0.14, 0.18, 0.4, 0.06]

        for day in active {
            let c = calendar[Int(day - plan.span.first)]
            let seasonal = season(c.month)
            let weekend = c.weekday >= 6
            if c.day == min(salaryDay, c.daysInMonth) {
                try row(p, &random, day: day, second: 9 * 3600, bare: random.chance(0.5), kind: "income", spend: .salary,
                        balance: bank, amount: p.price(p.salaryCents * (c.month == 12 ? 2 : 1)), method: "transfer",
                        description: c.month == 12 ? "Salary + 13th month" : "Salary")
                if savings != 0 {
                    try row(p, &random, day: day, second: 10 * 3600 + random.below(3600), bare: false, kind: "transfer",
                            spend: nil, balance: bank, toBalance: savings, amount: p.price(p.salaryCents * savingRate / 100),
                            method: "transfer", description: "To savings")
                }
            }
            if let rent, c.day == rentDay {
                try row(p, &random, day: day, second: 8 * 3600, bare: random.chance(0.6), kind: "expense", spend: .housing,
                        balance: bank, amount: p.price(rent), method: "transfer", description: "Rent")
            }
            if c.day == utilitiesDay, p.categoryIds[SampleSpend.utilities.rawValue] != 0 {
                try row(p, &random, day: day, second: 7 * 3600, bare: random.chance(0.5), kind: "expense", spend: .utilities,
                        balance: bank, amount: p.price(random.int(4_000...16_000)), method: "direct debit",
                        description: random.pick(SampleSpend.utilities.descriptions), deletable: true)
            }
            for k in subscriptions.indices where subscriptions[k].next == day {
                let s = subscriptions[k]
                try row(p, &random, day: day, second: 6 * 3600, bare: random.chance(0.7), kind: "expense", spend: .subscriptions,
                        balance: card != 0 ? card : bank, amount: p.price(s.euroCents), method: "card",
                        description: s.description, recurrence: s.everyDays)
                subscriptions[k].next += Int32(s.everyDays)
            }
            if c.day == 1 {
                for (child, cents) in p.paysAllowances where p.categoryIds[SampleSpend.kids.rawValue] != 0 {
                    try row(p, &random, day: day, second: 8 * 3600, bare: true, kind: "expense", spend: .kids,
                            balance: bank, amount: p.price(cents), method: "transfer", description: "Allowance \(child)")
                }
            }
            if random.chance(groceriesByWeekday[c.weekday - 1] * seasonal) {
                let (balance, method) = payment(p, &random)
                try row(p, &random, day: day, second: second(&random, from: 8, to: 21), bare: random.chance(0.03),
                        kind: "expense", spend: .groceries, balance: balance, amount: p.price(random.skewed(800, 16_000)),
                        method: method, description: random.pick(SampleSpend.groceries.descriptions), deletable: true)
            }
            if random.chance(eatingOutByWeekday[c.weekday - 1] * seasonal) {
                let (balance, method) = payment(p, &random)
                var category: Int64?
                if let deletedCategory, day < deletedCategory.until, random.chance(0.4) { category = deletedCategory.id }
                try row(p, &random, day: day, second: random.chance(0.4) ? second(&random, from: 12, to: 15) : second(&random, from: 19, to: 23),
                        bare: random.chance(0.03), kind: "expense", spend: .eatingOut, categoryId: category, balance: balance,
                        amount: p.price(random.skewed(350, 9_000)), method: method,
                        description: random.pick(SampleSpend.eatingOut.descriptions), deletable: true)
            }
            if random.chance(weekend ? 0.14 : 0.1) {
                let (balance, method) = payment(p, &random)
                try row(p, &random, day: day, second: second(&random, from: 7, to: 23), bare: random.chance(0.03),
                        kind: "expense", spend: .transport, balance: balance, amount: p.price(random.skewed(150, 6_000)),
                        method: method, description: random.pick(SampleSpend.transport.descriptions), deletable: true)
            }
            for spend in optional where spend != .utilities {
                let chance = spend == .gifts && c.month == 12 ? 0.15 : 0.03
                guard random.chance(chance) else { continue }
                let (balance, method) = payment(p, &random)
                try row(p, &random, day: day, second: second(&random, from: 9, to: 22), bare: random.chance(0.03),
                        kind: "expense", spend: spend, balance: balance, amount: p.price(random.skewed(500, 20_000)),
                        method: method, description: random.pick(spend.descriptions), deletable: true)
            }
            if random.chance(0.02) {
                try row(p, &random, day: day, second: second(&random, from: 9, to: 20), bare: false, kind: "transfer",
                        spend: nil, balance: bank, toBalance: cash, amount: p.price(random.int(2...20) * 1_000),
                        method: "atm", description: "Cash withdrawal")
            }
            // Travel: the flight a month ahead in the home currency, then spending abroad.
            while trip < trips.count, trips[trip].last < day { trip += 1 }
            if trip < trips.count {
                let t = trips[trip]
                if day == max(active.lowerBound, t.first - 30) {
                    try row(p, &random, day: day, second: second(&random, from: 8, to: 23), bare: false, kind: "expense",
                            spend: .travel, balance: card != 0 ? card : main, amount: p.price(random.int(120...900) * 100),
                            method: "card", description: "Flight")
                }
                if day >= t.first {
                    if day == t.first {
                        try row(p, &random, day: day, second: second(&random, from: 14, to: 22), bare: false, kind: "expense",
                                spend: .travel, balance: card != 0 ? card : main,
                                amount: SamplePlan.price(random.int(80...300) * 100 * Int(t.last - t.first), in: t.currency),
                                currency: t.currency, method: "card", description: "Hotel")
                    }
                    for _ in 0..<random.int(1...3) {
                        try row(p, &random, day: day, second: second(&random, from: 8, to: 23), bare: false, kind: "expense",
                                spend: .travel, balance: card != 0 ? card : main,
                                amount: SamplePlan.price(random.skewed(500, 12_000), in: t.currency), currency: t.currency,
                                method: random.chance(0.8) ? "card" : "cash", description: random.pick(SampleSpend.travel.descriptions),
                                deletable: true)
                    }
                }
            }
        }
    }

    private func writeChildTransactions(_ p: SamplePerson, _ random: inout SampleRandom, active: ClosedRange<Int32>) throws {
        let allowance = p.balanceIds[SampleBalanceSlot.allowance.rawValue]
        let cash = p.balanceIds[SampleBalanceSlot.cash.rawValue]
        let savings = p.balanceIds[SampleBalanceSlot.savings.rawValue]
        let spends: [(SampleSpend, Double, Int, Int)] = [
            (.snacks, 0.12, 100, 800), (.games, 0.04, 200, 3_000), (.transport, 0.04, 150, 600),
            (.eatingOut, 0.03, 400, 2_000), (.shopping, 0.02, 500, 4_000), (.school, 0.02, 200, 3_000),
        ]
        for day in active {
            let c = calendar[Int(day - plan.span.first)]
            if c.day == 1 {
                try row(p, &random, day: day, second: 7 * 3600, bare: random.chance(0.5), kind: "income", spend: .allowance,
                        balance: allowance, amount: p.price(p.allowanceCents), method: "transfer", description: "Allowance")
            }
            if c.day == 2, savings != 0 {
                try row(p, &random, day: day, second: 18 * 3600, bare: false, kind: "transfer", spend: nil,
                        balance: allowance, toBalance: savings, amount: p.price(p.allowanceCents / 4), method: nil,
                        description: "Piggy bank")
            }
            for (spend, chance, low, high) in spends {
                if spend == .school, c.month == 7 || c.month == 8 { continue }
                guard random.chance(c.weekday >= 6 && spend == .eatingOut ? chance * 3 : chance) else { continue }
                try row(p, &random, day: day, second: second(&random, from: 8, to: 21), bare: random.chance(0.05),
                        kind: "expense", spend: spend, balance: random.chance(0.7) ? allowance : cash,
                        amount: p.price(random.skewed(low, high)), method: random.chance(0.6) ? "cash" : "card",
                        description: random.pick(spend.descriptions), deletable: true)
            }
            if c.month == 12, c.day >= 10, c.day <= 24, random.chance(0.1) {
                try row(p, &random, day: day, second: second(&random, from: 10, to: 19), bare: false, kind: "expense",
                        spend: .gifts, balance: allowance, amount: p.price(random.skewed(300, 2_500)), method: "cash",
                        description: "Christmas presents")
            }
        }
    }

    // MARK: - Logins

    private func writeLogins(_ p: SamplePerson, _ random: inout SampleRandom, active: ClosedRange<Int32>) throws {
        let rate = [0, 0.03, 0.1, 0.25, 0.5][random.weighted([10, 25, 30, 25, 10])]
        guard rate > 0 else { return }
        for day in active where random.chance(rate) {
            let (utc, offset) = instant(day: day, second: second(&random, from: 7, to: 24), zone: p.zone)
            let style = random.below(10)
            let text = style < 6 ? SampleTimestamp.format(seconds: utc, millis: random.below(1000), offset: nil)
                : style < 8 ? SampleTimestamp.format(seconds: utc, millis: nil, offset: nil)
                : SampleTimestamp.format(seconds: utc + Int64(offset), millis: nil, offset: offset)
            try writer.login(userId: p.id, at: text)
        }
    }
}
