/// Finds the spots where the car parks again and again among its stays: a leader clustering (the stay with the most
/// neighbours leads, and takes them along) on a grid, so that only stays in neighbouring cells are measured against
/// each other and ten thousand stays need no n × n table of distances.
public enum ParkingClustering {
    /// Groups stays into spots: every stay is in exactly one cluster; each cluster's stays lie within `radius` of
    /// one of its stays (its leader), so no two stays of a cluster are more than 2 × radius apart. The result does
    /// not depend on the order of `stays`. Clusters are sorted by visits (most first), then by center latitude,
    /// then longitude (then the order they formed in). A `radius` that is not a positive number leaves every stay
    /// a cluster of its own; so does a position that is not a coordinate (not finite, or beyond ±90° latitude).
    ///
    /// The stays are put in the canonical order first (time, arrivedBy, leftBy, latitude, longitude), so that the
    /// input's order cannot matter, and on a grid whose cells are at least `radius` wide, so that a stay's
    /// neighbours (the stays within `radius` of it) are found in the 3 × 3 cells around its own. Each stay counts
    /// its neighbours, itself included. The stay with the most neighbours not yet in a cluster leads (ties: the
    /// earliest in the canonical order); it and those neighbours make a cluster and leave the grid, and the stays
    /// near them count again. That repeats until every stay is in a cluster.
    public static func clusters(of stays: [ParkingStay], radius: Double) -> [ParkingCluster] {
        let ordered = stays.sorted(by: ParkingStay.canonicallyPrecedes)
        let groups = radius.isFinite && radius > 0 ? leaderGroups(ordered, radius: radius) : ordered.indices.map { [$0] }
        let clusters = groups.enumerated().map { formed, group in
            (formed: formed, cluster: ParkingCluster(stays: group.map { ordered[$0] }))
        }
        return clusters.sorted { a, b in
            if a.cluster.visits != b.cluster.visits { return a.cluster.visits > b.cluster.visits }
            return ParkingStay.precedes(a.cluster.center.latitude, b.cluster.center.latitude)
                ?? ParkingStay.precedes(a.cluster.center.longitude, b.cluster.center.longitude)
                ?? (a.formed < b.formed)
        }.map(\.cluster)
    }

    /// The leader clustering of `stays` (in the canonical order, `radius` positive): each cluster as the indices of
    /// its stays, ascending; the clusters in the order they formed.
    private static func leaderGroups(_ stays: [ParkingStay], radius: Double) -> [[Int]] {
        var grid = StayGrid(stays, radius: radius)
        // Each stay's neighbours still on the grid, itself included; each pair is measured once.
        var counts = [Int](repeating: 1, count: stays.count)
        for index in stays.indices {
            grid.forEachNeighbour(of: index, above: index) { neighbour in
                counts[index] += 1
                counts[neighbour] += 1
            }
        }
        var queue = LeaderQueue()
        for index in stays.indices { queue.push(count: counts[index], index: index) }
        var clustered = [Bool](repeating: false, count: stays.count)
        var groups: [[Int]] = []
        while let candidate = queue.pop() {
            let leader = candidate.index
            // Stale: the stay joined a cluster, or lost neighbours since (its newer entry stands further down).
            guard !clustered[leader], candidate.count == counts[leader] else { continue }
            var group = [leader]
            grid.forEachNeighbour(of: leader) { group.append($0) }
            group.sort()
            for index in group { clustered[index] = true }
            grid.remove(group)
            // The stays left near the group lose its stays as neighbours; their new counts go into the queue.
            var touched: Set<Int> = []
            for index in group {
                grid.forEachNeighbour(of: index) { neighbour in
                    counts[neighbour] -= 1
                    touched.insert(neighbour)
                }
            }
            for index in touched.sorted() { queue.push(count: counts[index], index: index) }
            groups.append(group)
        }
        return groups
    }
}

/// The stays on a grid of cells at least `radius` wide each way, so that a stay's neighbours lie in the 3 × 3 cells
/// around its own; stays leave it as they join clusters.
///
/// The cells are laid out on the local east/north plane around the first stay (`Geodesic.offset`, longitudes
/// wrapped to ±180° from it). A degree of longitude is shorter nearer the poles, so a cell is as wide as `radius`
/// where a degree is shortest among the stays (the highest latitude; for latitude, the lowest), with a margin:
/// everywhere else it is wider, which costs a few more distances, never a neighbour. (Stays spread over more than
/// half the longitudes would miss each other at the wrap; a car's do not.)
private struct StayGrid {
    private struct Cell: Hashable {
        var column: Int
        var row: Int
    }

    /// A stay as the grid measures it.
    private struct Point {
        var coordinate: Coordinate
        /// Metres per degree of longitude and of latitude where it stands.
        var metresPerDegree: (east: Double, north: Double)
        /// Whether distances from it may be measured on the local plane (see `isNeighbour`).
        var planar: Bool
        /// Its cell; `nil` for a position that is not a coordinate, which has no neighbours.
        var cell: Cell?
    }

    /// How much wider than the radius a cell is where it is narrowest: the local plane's error, with room to spare.
    private static let cellMargin = 1.02
    /// Up to what radius and latitude neighbours may be judged on the local plane, metres and degrees: there it is
    /// within 0.01 % of the ellipsoid for the distances between nearby cells.
    private static let planarRadiusLimit = 10_000.0
    private static let planarLatitudeLimit = 80.0
    /// A pair the plane puts within this share of the radius is judged by the ellipsoid's distance (Vincenty).
    private static let planarTolerance = 0.01

    private let radius: Double
    private let points: [Point]
    /// The stays still on the grid, by cell, ascending.
    private var cells: [Cell: [Int]] = [:]
    /// Squared distances on the plane below which a pair certainly is within `radius`, and above which certainly not.
    private let certainlyWithin: Double
    private let certainlyBeyond: Double

    init(_ stays: [ParkingStay], radius: Double) {
        self.radius = radius
        certainlyWithin = (radius * (1 - Self.planarTolerance)) * (radius * (1 - Self.planarTolerance))
        certainlyBeyond = (radius * (1 + Self.planarTolerance)) * (radius * (1 + Self.planarTolerance))
        let planeAllowed = radius <= Self.planarRadiusLimit
        var points = stays.map { stay in
            let position = stay.position
            // One degree each way from the stay: `offset` measures it with the radii of the stay's latitude.
            let step = Geodesic.offset(of: Coordinate(latitude: position.latitude + 1, longitude: position.longitude + 1),
                                       from: position)
            return Point(coordinate: position, metresPerDegree: (step.east, step.north),
                         planar: planeAllowed && abs(position.latitude) <= Self.planarLatitudeLimit, cell: nil)
        }
        let onGrid = points.indices.filter { Self.isCoordinate(points[$0].coordinate) }
        if let first = onGrid.first {
            let origin = points[first].coordinate
            let shortest = onGrid.reduce((east: Double.infinity, north: Double.infinity)) { shortest, index in
                (min(shortest.east, points[index].metresPerDegree.east),
                 min(shortest.north, points[index].metresPerDegree.north))
            }
            // Cell sizes on the plane around `origin`, whose metres per degree are those at its latitude.
            let atOrigin = points[first].metresPerDegree
            let width = radius * Self.cellMargin * atOrigin.east / shortest.east
            let height = radius * Self.cellMargin * atOrigin.north / shortest.north
            for index in onGrid {
                let offset = Geodesic.offset(of: points[index].coordinate, from: origin)
                let cell = Cell(column: Self.cellIndex(offset.east / width), row: Self.cellIndex(offset.north / height))
                points[index].cell = cell
                cells[cell, default: []].append(index)
            }
        }
        self.points = points
    }

    /// Calls `body` with every stay still on the grid within `radius` of stay `index` (the stay itself left out),
    /// only those after `above` when given.
    func forEachNeighbour(of index: Int, above: Int = -1, _ body: (Int) -> Void) {
        guard let cell = points[index].cell else { return }
        for column in cell.column - 1...cell.column + 1 {
            for row in cell.row - 1...cell.row + 1 {
                guard let members = cells[Cell(column: column, row: row)] else { continue }
                for other in members where other > above && other != index && isNeighbour(index, other) {
                    body(other)
                }
            }
        }
    }

    /// Takes stays off the grid.
    mutating func remove(_ indices: [Int]) {
        let removed = Set(indices)
        for cell in Set(indices.compactMap { points[$0].cell }) {
            cells[cell]?.removeAll { removed.contains($0) }
            if cells[cell]?.isEmpty == true { cells[cell] = nil }
        }
    }

    /// Whether two stays lie within `radius` of each other on the ellipsoid. Vincenty's formula costs dozens of
    /// trigonometric calls, and a spot visited thousands of times has millions of pairs: the local plane (metres
    /// per degree averaged over the two) decides a pair clearly within or beyond `radius`; only a pair close to
    /// the boundary gets the ellipsoid's distance, so that the answer is the ellipsoid's either way.
    private func isNeighbour(_ first: Int, _ second: Int) -> Bool {
        let a = points[first]
        let b = points[second]
        if a.planar && b.planar {
            var longitudes = b.coordinate.longitude - a.coordinate.longitude
            if longitudes > 180 { longitudes -= 360 } else if longitudes < -180 { longitudes += 360 }
            let east = longitudes * (a.metresPerDegree.east + b.metresPerDegree.east) / 2
            let north = (b.coordinate.latitude - a.coordinate.latitude) * (a.metresPerDegree.north + b.metresPerDegree.north) / 2
            let squared = east * east + north * north
            if squared <= certainlyWithin { return true }
            if squared >= certainlyBeyond { return false }
        }
        return Geodesic.distance(from: a.coordinate, to: b.coordinate) <= radius
    }

    /// Whether a position is a point on the ellipsoid.
    private static func isCoordinate(_ position: Coordinate) -> Bool {
        position.latitude.isFinite && position.longitude.isFinite && abs(position.latitude) <= 90
    }

    /// The cell a position on the plane, in cells, falls in; far out (a tiny radius) the outermost cells gather all.
    private static func cellIndex(_ cells: Double) -> Int {
        let floor = cells.rounded(.down)
        guard !floor.isNaN else { return 0 }
        return Int(min(max(floor, -1e15), 1e15))
    }
}

/// The candidates to lead the next cluster, best first: the most neighbours, then the earliest stay. A stay that
/// loses neighbours is pushed again with its new count; the entries it leaves behind are stale, for the caller to
/// skip. (A binary heap: a count only falls, so no entry needs to move up later.)
private struct LeaderQueue {
    private var heap: [(count: Int, index: Int)] = []

    mutating func push(count: Int, index: Int) {
        heap.append((count, index))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.isBefore(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The best entry, taken out; `nil` when none is left.
    mutating func pop() -> (count: Int, index: Int)? {
        guard let best = heap.first else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return best }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count && Self.isBefore(heap[left], heap[first]) { first = left }
            if right < heap.count && Self.isBefore(heap[right], heap[first]) { first = right }
            guard first != parent else { break }
            heap.swapAt(parent, first)
            parent = first
        }
        return best
    }

    private static func isBefore(_ a: (count: Int, index: Int), _ b: (count: Int, index: Int)) -> Bool {
        a.count != b.count ? a.count > b.count : a.index < b.index
    }
}
