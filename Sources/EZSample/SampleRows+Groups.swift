import EZCore

extension SampleRows {
    // MARK: - Groups

    /// Writes every planned group: the group, its members, its shared expenses with their splits,
    /// and the members' settle-up payments.
    mutating func writeGroups() throws {
        for (g, group) in plan.groups.enumerated() {
            var random = SampleRandom(seed: seed, stream: 5_000_000_000 + UInt64(g))
            // Settling up draws from its own stream, so the groups' other rows are what they always were.
            var settling = SampleRandom(seed: seed, stream: 6_000_000_000 + UInt64(g))
            let owner = plan.persons[group.owner]
            let id = try writer.group(
                name: group.name, ownerId: owner.id, currency: group.currency,
                createdAt: localStamp(day: group.createdDay, second: 19 * 3600, zone: owner.zone),
                deletedAt: group.deletedDay.map { localStamp(day: $0, second: 21 * 3600, zone: owner.zone) })
            for m in group.members {
                let person = plan.persons[m.index]
                func when(_ day: Int32) -> String {
                    random.chance(0.4) ? SampleTimestamp.date(day)
                        : localStamp(day: day, second: second(&random, from: 9, to: 22), zone: person.zone)
                }
                try writer.groupMember(groupId: id, userId: person.id, joinedAt: when(m.joined), leftAt: m.left.map(when))
            }
            try writeGroupExpenses(group, id: id, &random, settling: &settling)
        }
    }

    private func writeGroupExpenses(_ group: SampleGroupPlan, id: Int64, _ random: inout SampleRandom,
                                    settling: inout SampleRandom) throws {
        let last = min(group.activeLast, (group.deletedDay ?? group.activeLast + 1) - 1)
        guard group.activeFirst <= last else { return }
        let rentCents = random.int(800...1_600) * 100 * group.members.count
        var members: [Int] = []
        // How the group settles up: flatmates every month; friends every month or two, except
        // about one group in four that never does; a trip once, a few days after it ends. Always a
        // few days into the month, and now and then someone pays back only a round part.
        _ = settling.next()
        let never = settling.chance(0.25)
        let every: Int?
        switch group.kind {
        case .flat: every = 1
        case .friends: every = never ? nil : settling.int(1...2)
        case .trip: every = nil
        }
        let payDay = settling.int(3...9)
        var owed: [Int: Int64] = [:]       // person index → outstanding in the group's currency (> 0: is owed)
        var monthsSinceSettling = 0
        for day in group.activeFirst...last {
            let today = calendar[Int(day - plan.span.first)]
            if today.day == 1 { monthsSinceSettling += 1 }
            if let every, today.day == payDay, monthsSinceSettling >= every {
                monthsSinceSettling = 0
                try settleUp(group, id: id, day: day, owed: &owed, &settling)
            }
            // Expenses keep a day away from anyone's joining or leaving day, so that every member's
            // local date, in any zone, agrees on who shares them.
            members.removeAll(keepingCapacity: true)
            var boundary = false
            for m in group.members {
                if abs(day - m.joined) <= 1 || m.left.map({ abs(day - $0) <= 1 }) == true { boundary = true; break }
                if m.joined < day, m.left.map({ day < $0 }) ?? true { members.append(m.index) }
            }
            guard !boundary, members.count >= 2 else { continue }
            let c = calendar[Int(day - plan.span.first)]
            let weekend = c.weekday >= 6
            switch group.kind {
            case .flat:
                if c.day == 2 {
                    let payer = members.contains(group.owner) ? group.owner : members[0]
                    try expense(group, id: id, day: day, payer: payer, members: members, spend: .housing,
                                euroCents: rentCents, description: "Flat rent", uneven: true, &random, owed: &owed)
                }
                if c.day == 20 {
                    try expense(group, id: id, day: day, payer: random.pick(members), members: members, spend: .utilities,
                                euroCents: random.int(60...250) * 100, description: "Bills", uneven: false, &random, owed: &owed)
                }
                if random.chance(0.08) {
                    try expense(group, id: id, day: day, payer: random.pick(members), members: members, spend: .groceries,
                                euroCents: random.skewed(1_000, 12_000), description: "Shared groceries",
                                uneven: random.chance(0.3), &random, owed: &owed)
                }
            case .friends:
                if random.chance(weekend ? 0.1 : 0.03) {
                    let dinner = random.chance(0.7)
                    try expense(group, id: id, day: day, payer: random.pick(members), members: members,
                                spend: dinner ? .eatingOut : .entertainment, euroCents: random.skewed(2_000, 30_000),
                                description: dinner ? "Dinner" : "Tickets", uneven: random.chance(0.35), &random, owed: &owed)
                }
            case .trip:
                for _ in 0..<random.int(1...4) {
                    let r = random.below(3)
                    let spend: SampleSpend = r == 0 ? .travel : r == 1 ? .eatingOut : .transport
                    try expense(group, id: id, day: day, payer: random.pick(members), members: members, spend: spend,
                                euroCents: random.skewed(1_500, 40_000), description: random.pick(spend.descriptions),
                                uneven: random.chance(0.35), &random, owed: &owed)
                }
            }
        }
        if group.kind == .trip, !never {
            let home = last + Int32(settling.int(2...6))
            if home <= plan.span.last, home < (group.deletedDay ?? .max) { try settleUp(group, id: id, day: home, owed: &owed, &settling) }
        }
    }

    /// Pays back what the group owes as it stands: the largest debtor pays the largest creditor
    /// until everyone is square, sometimes only a round part of it, from and to one of their
    /// balances or none. Members who left settle too.
    private func settleUp(_ group: SampleGroupPlan, id: Int64, day: Int32, owed: inout [Int: Int64],
                          _ random: inout SampleRandom) throws {
        let unit = SamplePlan.price(100, in: group.currency)    // one euro's worth in the group's currency
        var payments = 0
        while payments < group.members.count * 2 {
            let debtors = owed.filter { $0.value < 0 }, creditors = owed.filter { $0.value > 0 }
            guard let d = debtors.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }),
                  let c = creditors.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { break }
            var amount = min(-d.value, c.value)
            var partly = false
            if random.chance(0.2), amount > 10 * unit { amount = amount / (10 * unit) * (5 * unit); partly = true }   // about half, in round fives
            guard amount > 0 else { break }
            let payer = plan.persons[d.key], payee = plan.persons[c.key]
            func balance(_ p: SamplePerson) -> Int64? {
                let main = p.balanceIds[SampleBalanceSlot.main.rawValue]
                return main != 0 && random.chance(0.7) ? main : nil
            }
            let second = second(&random, from: 9, to: 22)
            try writer.groupPayment(groupId: id, fromUserId: payer.id, toUserId: payee.id, fromBalanceId: balance(payer),
                                    toBalanceId: balance(payee), amountMinor: amount, currency: group.currency,
                                    occurredAt: localStamp(day: day, second: second, zone: payer.zone),
                                    createdAt: localStamp(day: day, second: second + 60, zone: payer.zone))
            owed[d.key, default: 0] += amount
            owed[c.key, default: 0] -= amount
            payments += 1
            if partly { break }      // the rest waits for next time
        }
    }

    /// One group expense paid by `payer`, with explicit uneven `splits` rows when `uneven`
    /// (shares summing exactly to the amount, sometimes one member at zero), else none (equal shares).
    ///
    /// `owed` follows each member's outstanding balance in the group: the payer is owed the amount,
    /// each member owes their share (equal shares as the contract splits them: remainder units to
    /// the lowest user ids).
    private func expense(_ group: SampleGroupPlan, id: Int64, day: Int32, payer: Int, members: [Int], spend: SampleSpend,
                         euroCents: Int, description: String, uneven: Bool, _ random: inout SampleRandom,
                         owed: inout [Int: Int64]) throws {
        let p = plan.persons[payer]
        let amount = SamplePlan.price(euroCents, in: group.currency)
        let (occurred, created) = stamps(&random, day: day, second: second(&random, from: 11, to: 23), zone: p.zone, bare: random.chance(0.03))
        let category = p.categoryIds[spend.rawValue]
        let card = p.balanceIds[SampleBalanceSlot.card.rawValue]
        let transaction = try writer.transaction(
            userId: p.id, balanceId: card != 0 ? card : p.balanceIds[SampleBalanceSlot.main.rawValue],
            categoryId: category == 0 ? nil : category, groupId: id, kind: "expense", toBalanceId: nil, amountMinor: amount,
            currency: group.currency, occurredAt: occurred, method: random.chance(0.8) ? "card" : "cash",
            description: description, recurrenceDays: nil, createdAt: created, deletedAt: nil)
        owed[payer, default: 0] += amount
        guard uneven else {
            let byId = members.sorted { plan.persons[$0].id < plan.persons[$1].id }
            let n = Int64(byId.count), q = amount / n, r = amount % n
            for (rank, m) in byId.enumerated() { owed[m, default: 0] -= q + (Int64(rank) < r ? 1 : 0) }
            return
        }
        var weights = members.map { _ in Int64(random.int(1...4)) }
        if members.count >= 3, random.chance(0.1) {
            let skip = random.below(members.count)
            if members[skip] != payer { weights[skip] = 0 }
        }
        let total = weights.reduce(0, +)
        var shares = weights.map { amount * $0 / total }
        var remainder = amount - shares.reduce(0, +)
        var k = 0
        while remainder > 0 {
            if weights[k] > 0 { shares[k] += 1; remainder -= 1 }
            k = (k + 1) % shares.count
        }
        for (member, share) in zip(members, shares) {
            try writer.split(transactionId: transaction, userId: plan.persons[member].id, shareMinor: share)
            owed[member, default: 0] -= share
        }
    }
}
