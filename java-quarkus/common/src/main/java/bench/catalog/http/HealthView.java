package bench.catalog.http;

/** {@code GET /health}'s answer while the database answers. */
public record HealthView(String status) {

    public static final HealthView UP = new HealthView("UP");
}
