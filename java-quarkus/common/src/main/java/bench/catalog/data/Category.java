package bench.catalog.data;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import java.time.Instant;
import org.hibernate.annotations.CurrentTimestamp;
import org.hibernate.annotations.SourceType;

/** A row of db/schema.sql's {@code category}; Hibernate ORM and Hibernate Reactive map it alike. */
@Entity
public class Category {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, length = 32)
    public String code;

    @Column(nullable = false, length = 128)
    public String name;

    /**
     * The time of the last write, taken by Hibernate on every insert and update from the JVM's
     * clock: read back from the database instead (the default), Hibernate Reactive 3 fails on an
     * insert that returns two generated values, the id and this.
     */
    @CurrentTimestamp(source = SourceType.VM)
    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
