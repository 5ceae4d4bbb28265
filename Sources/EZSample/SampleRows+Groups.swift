import EZCore

extension SampleRows {
    // MARK: - Groups

    /// Writes every planned group: the group, its members, and its shared expenses with their splits.
    mutating func writeGroups() throws {
        for (g, group) in plan.groups.enumerated() {
            var random = SampleRandom(seed: seed, stream: 5_000_000_000 + UInt64(g))
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
            try writeGroupExpenses(group, id: id, &random)
        }
    }

    private func writeGroupExpenses(_ group: SampleGroupPlan, id: Int64, _ random: inout SampleRandom) throws {
        let last = min(group.activeLast, (group.deletedDay ?? group.activeLast + 1) - 1)
        guard group.activeFirst <= last else { return }
        let rentCents = random.int(800...1_600) * 100 * group.members.count
        var members: [Int] = []
        for day in group.activeFirst...last {
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
                                euroCents: rentCents, description: "Flat rent", uneven: true, &random)
                }
                if c.day == 20 {
                    try expense(group, id: id, day: day, payer: random.pick(members), members: members, spend: .utilities,
                                euroCents: random.int(60...250) * 100, description: "Bills", uneven: false, &random)
                }
                if random.chance(0.08) {
                    try expense(group, id: id, day: day, payer: random.pick(members), members: members, spend: .groceries,
                                euroCents: random.skewed(1_000, 12_000), description: "Shared groceries",
                                uneven: random.chance(0.3), &random)
                }
            case .friends:
                if random.chance(weekend ? 0.1 : 0.03) {
                    let dinner = random.chance(0.7)
                    try expense(group, id: id, day: day, payer: random.pick(members), members: members,
                                spend: dinner ? .eatingOut : .entertainment, euroCents: random.skewed(2_000, 30_000),
                                description: dinner ? "Dinner" : "Tickets", uneven: random.chance(0.35), &random)
                }
            case .trip:
                for _ in 0..<random.int(1...4) {
                    let r = random.below(3)
                    let spend: SampleSpend = r == 0 ? .travel : r == 1 ? .eatingOut : .transport
                    try expense(group, id: id, day: day, payer: random.pick(members), members: members, spend: spend,
                                euroCents: random.skewed(1_500, 40_000), description: random.pick(spend.descriptions),
                                uneven: random.chance(0.35), &random)
                }
            }
        }
    }

    /// One group expense paid by `payer`, with explicit uneven `splits` rows when `uneven`
    /// (shares summing exactly to the amount, sometimes one member at zero), else none (equal shares).
    private func expense(_ group: SampleGroupPlan, id: Int64, day: Int32, payer: Int, members: [Int], spend: SampleSpend,
                         euroCents: Int, description: String, uneven: Bool, _ random: inout SampleRandom) throws {
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
        guard uneven else { return }
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
        }
    }
}
