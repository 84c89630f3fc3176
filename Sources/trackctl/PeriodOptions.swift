import ArgumentParser
import TrackCore
import TrackctlTexts

/// The period and kind flags shared by `trips` and `export`.
struct PeriodOptions: ParsableArguments {
    @Flag(help: "This week, Monday to Sunday.") var thisWeek = false
    @Flag(help: "Last week.") var lastWeek = false
    @Flag(help: "This month (the default).") var thisMonth = false
    @Flag(help: "Last month.") var lastMonth = false
    @Option(help: ArgumentHelp("A calendar month.", valueName: "YYYY-MM")) var month: String?
    @Option(help: ArgumentHelp("First day of a range (with --to).", valueName: "YYYY-MM-DD")) var from: String?
    @Option(help: ArgumentHelp("Last day of a range (with --from).", valueName: "YYYY-MM-DD")) var to: String?
    @Flag(help: "The whole log.") var all = false
    @Option(help: ArgumentHelp("Only business or private trips, or all.", valueName: "business|private|all"))
    var kind: KindFilter = .all

    /// The period asked for; `validate` has checked that at most one was given.
    var period: LogPeriod {
        get throws {
            if thisWeek { return .thisWeek }
            if lastWeek { return .lastWeek }
            if lastMonth { return .lastMonth }
            if all { return .all }
            if let month {
                do { return try LogPeriod.month(parsing: month) } catch { throw ValidationError(error.description) }
            }
            if let from, let to {
                do { return try LogPeriod.days(from: from, to: to) } catch { throw ValidationError(error.description) }
            }
            return .thisMonth
        }
    }

    func validate() throws {
        let chosen = [thisWeek, lastWeek, thisMonth, lastMonth, month != nil, from != nil || to != nil, all].filter { $0 }
        if chosen.count > 1 {
            throw ValidationError(t("give one period: --this-week, --last-week, --this-month, --last-month, --month, --from/--to or --all"))
        }
        if (from == nil) != (to == nil) {
            throw ValidationError(t("--from and --to go together: --from 2026-11-01 --to 2026-11-15"))
        }
        _ = try period
    }
}

extension KindFilter: ExpressibleByArgument {}
