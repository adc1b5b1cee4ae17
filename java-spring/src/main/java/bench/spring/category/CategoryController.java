package bench.spring.category;

import java.net.URI;

import bench.spring.web.PageQuery;
import bench.spring.web.PageResponse;
import bench.spring.web.RequestBodies;
import tools.jackson.databind.JsonNode;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Path ids come before the body in every signature: Spring resolves arguments in order, so a
 * malformed id answers 400 before the body's Content-Type, size or syntax is looked at.
 */
@RestController
@RequestMapping("/categories")
class CategoryController {

	private final CategoryService categories;

	private final RequestBodies bodies;

	CategoryController(CategoryService categories, RequestBodies bodies) {
		this.categories = categories;
		this.bodies = bodies;
	}

	@GetMapping
	PageResponse<CategoryResponse> list(@RequestParam(required = false) Long page,
			@RequestParam(required = false) Long size) {
		return this.categories.list(PageQuery.of(page, size));
	}

	@GetMapping("/{id}")
	CategoryResponse get(@PathVariable long id) {
		return this.categories.get(id);
	}

	@PostMapping
	ResponseEntity<CategoryResponse> create(@RequestBody JsonNode body) {
		CategoryResponse created = this.categories.create(this.bodies.read(body, CategoryRequest::read));
		return ResponseEntity.created(URI.create("/categories/" + created.id())).body(created);
	}

	@PutMapping("/{id}")
	CategoryResponse replace(@PathVariable long id, @RequestBody JsonNode body) {
		return this.categories.replace(id, this.bodies.read(body, CategoryRequest::read));
	}

	@DeleteMapping("/{id}")
	ResponseEntity<Void> delete(@PathVariable long id) {
		this.categories.delete(id);
		return ResponseEntity.noContent().build();
	}

}
