package bench.webflux.item;

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
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Path ids come before the body in every signature: WebFlux resolves the arguments in order and
 * stops at the first that fails, so a malformed id answers 400 before the body's Content-Type,
 * size or syntax is looked at.
 */
@RestController
class ItemController {

	private final ItemService items;

	private final RequestBodies bodies;

	ItemController(ItemService items, RequestBodies bodies) {
		this.items = items;
		this.bodies = bodies;
	}

	@GetMapping("/items")
	Mono<PageResponse<ItemResponse>> list(@RequestParam(required = false) Long categoryId,
			@RequestParam(required = false) Long page, @RequestParam(required = false) Long size) {
		return this.items.list(PageQuery.of(page, size), categoryId);
	}

	@GetMapping("/categories/{id}/items")
	Mono<PageResponse<ItemResponse>> listByCategory(@PathVariable long id, @RequestParam(required = false) Long page,
			@RequestParam(required = false) Long size) {
		return this.items.listByCategory(id, PageQuery.of(page, size));
	}

	@GetMapping("/items/{id}")
	Mono<ItemResponse> get(@PathVariable long id) {
		return this.items.get(id);
	}

	@PostMapping("/items")
	Mono<ResponseEntity<ItemResponse>> create(@RequestBody JsonNode body) {
		return this.items.create(this.bodies.read(body, ItemRequest::read))
			.map(created -> ResponseEntity.created(URI.create("/items/" + created.id())).body(created));
	}

	@PutMapping("/items/{id}")
	Mono<ItemResponse> replace(@PathVariable long id, @RequestBody JsonNode body) {
		return this.items.replace(id, this.bodies.read(body, ItemRequest::read));
	}

	@DeleteMapping("/items/{id}")
	Mono<ResponseEntity<Void>> delete(@PathVariable long id) {
		return this.items.delete(id).then(Mono.fromSupplier(() -> ResponseEntity.noContent().build()));
	}

}
