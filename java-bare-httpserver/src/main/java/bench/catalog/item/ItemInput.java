package bench.catalog.item;

import bench.catalog.validation.Fields;

import java.math.BigDecimal;
import java.util.Set;

/** The body of POST and PUT /items: a full replacement ({@code description} absent means null). */
public record ItemInput(String sku, String name, BigDecimal price, int stock, String description, long categoryId) {

    public static final int SKU_LENGTH = 64;
    public static final int NAME_LENGTH = 128;
    public static final int DESCRIPTION_LENGTH = 16384;
    public static final BigDecimal MAX_PRICE = new BigDecimal("99999999.99");
    /** The properties read; any other is ignored. */
    public static final Set<String> PROPERTIES = Set.of("sku", "name", "price", "stock", "description", "categoryId");

    public static ItemInput from(Object json) {
        var fields = Fields.of(json);
        var input = new ItemInput(
                fields.requiredString("sku", SKU_LENGTH),
                fields.requiredString("name", NAME_LENGTH),
                fields.decimal("price", BigDecimal.ZERO, MAX_PRICE, 2),
                (int) fields.integer("stock", 0, Integer.MAX_VALUE),
                fields.optionalString("description", DESCRIPTION_LENGTH),
                fields.integer("categoryId", Long.MIN_VALUE, Long.MAX_VALUE));
        fields.validate();
        return input;
    }
}
