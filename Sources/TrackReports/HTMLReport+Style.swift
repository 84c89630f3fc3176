extension HTMLReport {
    /// The report's style sheet: A4 portrait with 14 mm margins, 9 pt tables whose header repeats on each page,
    /// rows and maps kept whole across page breaks, two maps per row; colours print as they are (the highlight of a
    /// missing purpose, the map markers). Tables lay out automatically: dates, times and figures never wrap
    /// (`fixed`, `num`), free text may break anywhere (`text`), so a wide font or a long word cannot overflow. A
    /// trip's start and end place share the customer / destination column (`places`), so the table stays as wide.
    static let styleSheet = """
        @page { size: A4; margin: 14mm; }
        * { box-sizing: border-box; }
        html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        body { margin: 0 auto; max-width: 182mm; color: #111; background: #fff; line-height: 1.3; font-size: 10pt;
          font-family: Arial, "Liberation Sans", Helvetica, "DejaVu Sans Condensed", "DejaVu Sans", sans-serif; }
        @media screen { body { padding: 10mm 6mm; max-width: calc(182mm + 12mm); } }
        h1 { font-size: 18pt; margin: 0 0 1mm; }
        h2 { font-size: 12pt; margin: 6mm 0 2mm; break-after: avoid; page-break-after: avoid; }
        .period { font-size: 13pt; margin: 0 0 3mm; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 0.8mm 4mm;
          margin: 0; font-size: 9.5pt; }
        dl.facts dt { color: #555; }
        dl.facts dd { margin: 0; overflow-wrap: break-word; }
        table { width: 100%; border-collapse: collapse; font-size: 9pt; }
        thead { display: table-header-group; }
        tfoot { display: table-row-group; }
        tr, figure { break-inside: avoid; page-break-inside: avoid; }
        th, td { padding: 0.7mm 0.9mm; border-bottom: 0.5pt solid #bbb; text-align: left; vertical-align: top;
          overflow-wrap: break-word; }
        th { background: #ececec; font-weight: bold; border-bottom: 1pt solid #666; }
        td.text { overflow-wrap: anywhere; }
        td.fixed, td.num { white-space: nowrap; }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        tr.deleted td { text-decoration: line-through; color: #777; }
        tr.deleted td.notes { text-decoration: none; font-style: italic; color: #444; }
        .missing { background: #ffd966; font-weight: bold; padding: 0 0.8mm; }
        .source { font-size: 75%; color: #555; vertical-align: super; }
        p.sources { font-size: 85%; color: #444; margin: 1mm 0 0; }
        .places { color: #333; }
        .places .none { color: #777; }
        .places .address { color: #555; }
        tfoot td { font-weight: bold; border-bottom: none; }
        tfoot tr:first-child td { border-top: 1pt solid #333; }
        tfoot tr.all td { border-top: 0.5pt solid #333; }
        col.purpose { width: 16%; } col.where { width: 15%; } col.notes { width: 20%; }
        col.customer { width: 11%; } col.detours { width: 9%; }
        body.wide { max-width: 269mm; page: wide; }
        @page wide { size: A4 landscape; }
        table.year { width: auto; min-width: 60%; }
        table.year th { text-align: left; font-weight: normal; padding-right: 8mm; }
        table.year tr.all th, table.year tr.all td { font-weight: bold; border-top: 0.5pt solid #333; }
        col.change { width: 30%; } col.reason { width: 28%; }
        .empty { color: #555; font-style: italic; }
        .maps { display: flex; flex-wrap: wrap; gap: 4mm; }
        figure.map { flex: 0 0 calc(50% - 2mm); margin: 0; }
        figure.map svg { display: block; width: 100%; height: auto; }
        figure.map figcaption { font-size: 8.5pt; margin-top: 1mm; color: #333; }
        ul.no-route { margin: 3mm 0 0; padding-left: 5mm; font-size: 8.5pt; color: #333; }
        footer { margin-top: 8mm; padding-top: 2mm; border-top: 0.5pt solid #999; font-size: 8.5pt; color: #333; }
        code { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; overflow-wrap: anywhere; }
        """
}
