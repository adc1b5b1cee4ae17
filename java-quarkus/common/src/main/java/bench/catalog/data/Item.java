package bench.catalog.data;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import java.math.BigDecimal;
import java.time.Instant;
import org.hibernate.annotations.CurrentTimestamp;
import org.hibernate.annotations.SourceType;

/**
 * A row of db/schema.sql's {@code item}. Its category is lazy: the lists fetch it in their own
 * query ({@code join fetch}), a single read or write loads it when the answer needs it.
 */
@Entity
public class Item {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, length = 64)
    public String sku;

    @Column(nullable = false, length = 128)
    public String name;

    @Column(nullable = false, precision = 10, scale = 2)
    public BigDecimal price;

    @Column(nullable = false)
    public int stock;

    public String description;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "category_id", nullable = false)
    public Category category;

    @CurrentTimestamp(source = SourceType.VM)
    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;
}
