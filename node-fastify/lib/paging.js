// `page` and `size` as the query schema leaves them (validated text, defaults filled in), and the
// page envelope. The page number may be any signed 64-bit value, so it stays a BigInt, and so does
// the offset, which may pass 64 bits (db/ then skips the page query: it starts past the end).
export function pagingOf(query) {
  const page = BigInt(query.page)
  const size = Number(query.size)
  return { page, size, offset: page * BigInt(size) }
}

export function pageOf({ content, total }, { page, size }) {
  return {
    content,
    page: { size, number: page, totalElements: total, totalPages: Math.ceil(total / size) },
  }
}
