package plugin

// mapNoReserve: macOS reserves lazily without a flag.
const mapNoReserve = 0
