// What data access reports, in the data's own terms. lib/problems.js decides what each means in
// HTTP; nothing under db/ names a status or a JSON field.

// A unique key (a category's code, an item's sku) is already taken.
export class DuplicateKeyError extends Error {}

// A category cannot be deleted while items still belong to it.
export class CategoryInUseError extends Error {}

// An item names a category that does not exist.
export class UnknownCategoryError extends Error {}

// PostgreSQL refused or lost the connection, or the pool had none free in time.
export class DatabaseUnavailableError extends Error {
  constructor(cause) {
    super('the database is unavailable', { cause })
  }
}
