extension AllowanceRate {
    /// Every country's allowance, oldest first within a country. A change is a new row with its date and source.
    public static let table: [AllowanceRate] = [
        // Estonia: tax-free compensation for a personal car used for work, with a log (sõidupäevik) of every trip.
        AllowanceRate(.estonia, from: day(2014, 9, 1), rate: 300, monthlyCap: 33_500,
                      source: "Tulumaksuseadus § 13 lg 3 p 2; Vabariigi Valitsuse määrus nr 164 (14.07.2006)"),
        AllowanceRate(.estonia, from: day(2025, 1, 1), rate: 500, monthlyCap: 55_000,
                      source: "Tulumaksuseadus § 13 lg 3 p 2, as amended from 1 January 2025"),
        // Germany: business trips (Dienstreisen) in one's own car, the flat rate per kilometre.
        AllowanceRate(.germany, from: day(2014, 1, 1), rate: 300,
                      source: "§ 9 Abs. 1 Satz 3 Nr. 4a Satz 2 EStG with § 5 Abs. 2 BRKG"),
        // The UK: approved mileage allowance payments (AMAP) for cars and vans, per tax year (6 April – 5 April).
        AllowanceRate(.unitedKingdom, from: day(2011, 4, 6), rate: 450, reducedRate: 250, threshold: 10_000,
                      source: "ITEPA 2003 s. 230; HMRC approved mileage rates from 2011–12"),
        // The US: the IRS standard mileage rate for business use.
        AllowanceRate(.unitedStates, from: day(2021, 1, 1), rate: 560, source: "IRS Notice 2021-02"),
        AllowanceRate(.unitedStates, from: day(2022, 1, 1), rate: 585, source: "IRS Notice 2022-03"),
        AllowanceRate(.unitedStates, from: day(2022, 7, 1), rate: 625, source: "IRS Announcement 2022-13"),
        AllowanceRate(.unitedStates, from: day(2023, 1, 1), rate: 655, source: "IRS Notice 2023-03"),
        AllowanceRate(.unitedStates, from: day(2024, 1, 1), rate: 670, source: "IRS Notice 2024-08"),
        AllowanceRate(.unitedStates, from: day(2025, 1, 1), rate: 700, source: "IRS Notice 2025-5"),
        AllowanceRate(.unitedStates, from: day(2026, 1, 1), rate: 725, source: "IRS news release of 29 December 2025"),
    ]

    private static func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
        CivilDate(year: year, month: month, day: day)!
    }
}
