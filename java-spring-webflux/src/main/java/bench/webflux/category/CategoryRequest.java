package bench.webflux.category;

import bench.webflux.web.JsonFields;
import bench.webflux.web.Text;

/** The body of POST and PUT /categories. */
public record CategoryRequest(@Text(max = 32) String code, @Text(max = 128) String name) {

	public static CategoryRequest read(JsonFields fields) {
		return new CategoryRequest(fields.string("code"), fields.string("name"));
	}

}
