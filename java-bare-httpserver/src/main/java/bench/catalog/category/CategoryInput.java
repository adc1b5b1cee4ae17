package bench.catalog.category;

import bench.catalog.validation.Fields;

import java.util.Set;

/** The body of POST and PUT /categories: a full replacement. */
public record CategoryInput(String code, String name) {

    public static final int CODE_LENGTH = 32;
    public static final int NAME_LENGTH = 128;
    /** The properties read; any other is ignored. */
    public static final Set<String> PROPERTIES = Set.of("code", "name");

    public static CategoryInput from(Object json) {
        var fields = Fields.of(json);
        var input = new CategoryInput(
                fields.requiredString("code", CODE_LENGTH),
                fields.requiredString("name", NAME_LENGTH));
        fields.validate();
        return input;
    }
}
