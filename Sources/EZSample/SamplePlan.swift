import EZCore

/// The days a sample covers: every day of its months, as day numbers (days since 1970-01-01).
struct SampleSpan {
    var first: Int32
    var last: Int32
    var days: Int { Int(last - first) + 1 }

    /// `day` moved into the span.
    func clamp(_ day: Int32) -> Int32 { min(max(day, first), last) }
}

/// How a user's overall monthly budget is set: a budget row, the user's `monthly_limit_minor`, or not at all.
enum SampleOverall { case none, budgetRow, monthlyLimit }

/// Who a sample user is, decided before any row is written (families and groups need it).
struct SamplePerson {
    var id: Int64
    var region: Int
    var zone: ZoneRules
    var currency: String
    var username: String
    var email: String
    var firstName: String
    var isAdmin = false
    var isChild = false
    var inFamily = false
    var createdDay: Int32
    var deletedDay: Int32?
    var overall: SampleOverall = .none
    /// Monthly net salary in euro cents (converted to the user's currency when written).
    var salaryCents: Int
    /// A child's monthly allowance, in euro cents.
    var allowanceCents = 0
    /// Allowances this parent pays: (child's first name, euro cents).
    var paysAllowances: [(String, Int)] = []
    /// Whether this user names categories in Italian.
    var italianNames = false

    // Filled in while the user's rows are written (ids of live rows; 0 when absent).
    var balanceIds: [Int64] = Array(repeating: 0, count: SampleBalanceSlot.allCases.count)
    var categoryIds: [Int64] = Array(repeating: 0, count: SampleSpend.allCases.count)

    /// The first and last day the user is active inside the span (nil when never).
    func activeDays(in span: SampleSpan) -> ClosedRange<Int32>? {
        let first = max(createdDay, span.first)
        let last = min(deletedDay.map { $0 - 1 } ?? span.last, span.last)
        return first <= last ? first...last : nil
    }

    /// `minor` units of the user's currency for `euroCents`.
    func price(_ euroCents: Int) -> Int64 { SamplePlan.price(euroCents, in: currency) }
}

/// The balances a sample user may have, in the order they are written.
enum SampleBalanceSlot: Int, CaseIterable {
    case main, cash, card, bank, savings, allowance
}

/// A family: two parents and one to three children, all living in the same place.
struct SampleFamily {
    var name: String
    var createdDay: Int32
    /// Indexes into the person list, parents first.
    var members: [(index: Int, parent: Bool)]
}

/// A group of friends, with when each member joined and left.
struct SampleGroupPlan {
    var kind: SampleGroupKind
    var name: String
    var owner: Int
    var currency: String
    var createdDay: Int32
    var deletedDay: Int32?
    /// The days expenses may fall on.
    var activeFirst: Int32
    var activeLast: Int32
    /// (person index, first day shared, first day no longer shared), in person order.
    var members: [(index: Int, joined: Int32, left: Int32?)]
}

/// Everything decided up front: the people, their families and their groups.
struct SamplePlan {
    var span: SampleSpan
    var persons: [SamplePerson] = []
    var families: [SampleFamily] = []
    var groups: [SampleGroupPlan] = []

    /// `euroCents` in minor units of `currency` (JPY rounded to whole yen), never below 1.
    static func price(_ euroCents: Int, in currency: String) -> Int64 {
        let raw = Double(euroCents) * SampleRates.minorPerEuroCent(currency)
        return max(1, Int64(raw.rounded()))
    }

    /// Plans every person, family and group from the seed. One function on purpose: the random
    /// draws must stay in this exact order, or every sample ledger (and the tests built on them)
    /// changes; splitting it would spread that order over several places.
    init(options: SampleOptions, span: SampleSpan) {
        self.span = span
        var random = SampleRandom(seed: options.seed, stream: 1)
        let weights = SampleCatalog.regions.map(\.weight)
        let count = options.users
        let spanDays = span.days

        func createdDay(_ random: inout SampleRandom) -> Int32 {
            if random.chance(0.8) || spanDays < 60 { return span.first - Int32(random.int(1...720)) }
            return span.first + Int32(random.below(spanDays - 30))
        }
        func adult(_ id: Int, region: Int, last: Int, created: Int32, _ random: inout SampleRandom) -> SamplePerson {
            let r = SampleCatalog.regions[region]
            let first = random.pick(r.firstNames)
            let surname = r.lastNames[last]
            let domain = ["example.com", "example.org", "example.net"][random.below(3)]
            return SamplePerson(
                id: Int64(id), region: region, zone: try! ZoneRules.named(r.zone)!, currency: r.currency,
                username: "\(first.0).\(surname.0)\(id)", email: "\(first.1).\(surname.1)\(id)@\(domain)",
                firstName: first.0, createdDay: created, salaryCents: random.int(150_000...480_000),
                italianNames: r.italianCategories && random.chance(0.35))
        }

        var id = 1
        while id <= count {
            let region = random.weighted(weights)
            let r = SampleCatalog.regions[region]
            let children = random.int(1...3)
            // A family never takes the last id (kept for a soft-deleted user) nor the admin's;
            // every sample of a dozen users or more has at least one family.
            if id > 1, id + 2 + children < count, random.chance(0.05) || (families.isEmpty && id >= 9) {
                let last = random.below(r.lastNames.count)
                let created = createdDay(&random)
                var members: [(Int, Bool)] = []
                let firstParent = persons.count
                for k in 0..<(2 + children) {
                    var p = adult(id, region: region, last: last, created: created + Int32(random.below(20)), &random)
                    p.inFamily = true
                    if k >= 2 {
                        p.isChild = true
                        p.createdDay = min(created + Int32(random.int(0...400)), span.last - 20)
                        p.allowanceCents = random.int(10...60) * 100
                        p.salaryCents = 0
                        persons[firstParent].paysAllowances.append((p.firstName, p.allowanceCents))
                    }
                    persons.append(p)
                    members.append((persons.count - 1, k < 2))
                    id += 1
                }
                let name = r.familyPattern.replacingPercent(with: r.lastNames[last].0.capitalizedFirst)
                families.append(SampleFamily(name: name, createdDay: created, members: members))
            } else {
                var p = adult(id, region: region, last: random.below(r.lastNames.count), created: createdDay(&random), &random)
                p.isAdmin = id == 1 || random.chance(0.002)
                persons.append(p)
                id += 1
            }
        }

        // A few users deleted their account (always the last one, so small samples have one too).
        for i in persons.indices where !persons[i].inFamily && !persons[i].isAdmin {
            if random.chance(0.01) || (i == persons.count - 1 && count >= 3) {
                let from = max(persons[i].createdDay, span.first) + 1
                persons[i].deletedDay = min(from + Int32(random.below(max(1, spanDays - 10))), span.last - 1)
                if persons[i].deletedDay! <= persons[i].createdDay { persons[i].deletedDay = persons[i].createdDay + 1 }
            }
        }
        // Hostile and non-ASCII usernames go to the first live adults after the admin.
        var special = 0
        for i in persons.indices where special < SampleCatalog.specialUsernames.count {
            guard !persons[i].isAdmin, !persons[i].isChild, persons[i].deletedDay == nil else { continue }
            persons[i].username = SampleCatalog.specialUsernames[special]
            persons[i].email = "user\(persons[i].id)@example.com"
            special += 1
        }
        for i in persons.indices where !persons[i].isChild {
            let r = random.below(100)
            persons[i].overall = r < 35 ? .budgetRow : r < 55 ? .monthlyLimit : .none
        }
        planGroups(&random)
    }

    // MARK: - Groups

    private mutating func planGroups(_ random: inout SampleRandom) {
        let eligible = persons.indices.filter { !persons[$0].isChild && persons[$0].deletedDay == nil }
        guard eligible.count >= 2 else { return }
        let count = max(1, eligible.count / 5)
        let sizes = [2, 3, 4, 5, 6, 7, 8]
        let sizeWeights = [30, 25, 20, 10, 7, 4, 4]
        for _ in 0..<count {
            let kindIndex = random.weighted([25, 45, 30])
            let (kind, names) = SampleCatalog.groupNames[kindIndex]
            let size = min(sizes[random.weighted(sizeWeights)], eligible.count)
            var chosen: [Int] = []
            while chosen.count < size {
                let candidate = eligible[random.below(eligible.count)]
                if !chosen.contains(candidate) { chosen.append(candidate) }
            }
            let owner = chosen[0]
            let currency = random.chance(0.7) ? "EUR" : persons[owner].currency
            let latestCreated = chosen.map { persons[$0].createdDay }.max()!
            var created: Int32
            var activeFirst: Int32, activeLast: Int32
            if kind == .trip {
                let tripStart = span.clamp(max(latestCreated + 40, span.first + Int32(random.below(span.days))))
                created = max(latestCreated + 1, tripStart - Int32(random.int(5...30)))
                activeFirst = tripStart
                activeLast = min(span.last, tripStart + Int32(random.int(3...10)))
            } else {
                created = max(latestCreated + 1, span.first - Int32(random.below(200)))
                activeFirst = max(created + 2, span.first)
                activeLast = span.last
            }
            var members: [(index: Int, joined: Int32, left: Int32?)] = []
            for (k, p) in chosen.enumerated() {
                var joined = created
                var left: Int32?
                if kind != .trip, k > 0, random.chance(0.3) {
                    joined = created + Int32(random.int(20...300))
                }
                if kind != .trip, k > 0, random.chance(0.2) {
                    let leave = joined + Int32(random.int(60...400))
                    if leave < span.last - 10 { left = leave }
                }
                members.append((p, joined, left))
            }
            members.sort { $0.index < $1.index }
            let deleted: Int32? = (random.chance(0.04) || (groups.count == 2 && count >= 3)) && activeFirst < activeLast
                ? activeFirst + Int32(random.below(Int(activeLast - activeFirst))) : nil
            groups.append(SampleGroupPlan(kind: kind, name: random.pick(names), owner: owner, currency: currency,
                                          createdDay: created, deletedDay: deleted, activeFirst: activeFirst,
                                          activeLast: activeLast, members: members))
        }
    }
}

extension String {
    /// The string with its first character upper-cased (ASCII and Latin-1 letters).
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }

    /// The string with every `%` replaced by `value`.
    func replacingPercent(with value: String) -> String {
        split(separator: "%", omittingEmptySubsequences: false).joined(separator: value)
    }
}
