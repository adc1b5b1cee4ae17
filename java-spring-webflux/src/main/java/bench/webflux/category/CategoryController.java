package bench.webflux.category;

import java.net.URI;

import bench.webflux.web.PageQuery;
import bench.webflux.web.PageResponse;
import bench.webflux.web.RequestBodies;
import reactor.core.publisher.Mono;
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
 * Path ids come before the body in every signature: WebFlux resolves the arguments in order and
 * stops at the first that fails, so a malformed id answers 400 before the body's Content-Type,
 * size or syntax is looked at.
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
	Mono<PageResponse<CategoryResponse>> list(@RequestParam(required = false) Long page,
			@RequestParam(required = false) Long size) {
		return this.categories.list(PageQuery.of(page, size));
	}

	@GetMapping("/{id}")
	Mono<CategoryResponse> get(@PathVariable long id) {
		return this.categories.get(id);
	}

	@PostMapping
	Mono<ResponseEntity<CategoryResponse>> create(@RequestBody JsonNode body) {
		return this.categories.create(this.bodies.read(body, CategoryRequest::read))
			.map(created -> ResponseEntity.created(URI.create("/categories/" + created.id())).body(created));
	}

	@PutMapping("/{id}")
	Mono<CategoryResponse> replace(@PathVariable long id, @RequestBody JsonNode body) {
		return this.categories.replace(id, this.bodies.read(body, CategoryRequest::read));
	}

	@DeleteMapping("/{id}")
	Mono<ResponseEntity<Void>> delete(@PathVariable long id) {
		return this.categories.delete(id).then(Mono.fromSupplier(() -> ResponseEntity.noContent().build()));
	}

}
