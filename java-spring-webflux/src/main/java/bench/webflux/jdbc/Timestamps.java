package bench.webflux.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * {@code timestamptz} and the entities' {@link Instant}: PgJDBC reads and binds a timestamptz as an
 * {@link OffsetDateTime} (JDBC 4.2 has no Instant mapping), at UTC here.
 */
final class Timestamps {

	private Timestamps() {
	}

	static OffsetDateTime bind(Instant instant) {
		return instant.atOffset(ZoneOffset.UTC);
	}

	static Instant read(ResultSet row, String column) throws SQLException {
		return row.getObject(column, OffsetDateTime.class).toInstant();
	}

}
