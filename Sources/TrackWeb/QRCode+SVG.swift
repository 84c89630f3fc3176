import TerminalQR

extension QRCode {
    /// The code as an SVG image: one path of its dark modules on white, with a quiet zone of `quietZone` modules
    /// around it (four, as the standard asks), scaled by whoever shows it.
    func svg(quietZone: Int = 4) -> String {
        let side = size + 2 * quietZone
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                // A run of dark modules in the row as one rectangle.
                var end = column
                while end < size && self[row, end] { end += 1 }
                path += "M\(column + quietZone) \(row + quietZone)h\(end - column)v1h-\(end - column)z"
                column = end
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>

            """
    }
}
