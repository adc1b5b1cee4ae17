package bench.catalog.data;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.hibernate.ReadOnlyMode;
import org.hibernate.jpa.HibernateHints;

/** Categories through JPA: one EntityManager per call, closed when the call returns. */
public final class CategoryRepository {

    private final EntityManagerFactory emf;

    public CategoryRepository(EntityManagerFactory emf) {
        this.emf = emf;
    }

    /** Two statements: the count, then the page (skipped when it lies past the end). */
    public Page<Category> page(PageRequest request) {
        try (EntityManager em = emf.createEntityManager()) {
            long total = em.createQuery("select count(*) from Category c", Long.class).getSingleResult();
            if (request.offset() >= total) {
                return Page.empty(total);
            }
            List<Category> content = em.createQuery("select c from Category c order by c.id", Category.class)
                    .setFirstResult((int) request.offset())
                    .setMaxResults(request.size())
                    .setHint(HibernateHints.HINT_READ_ONLY, true)
                    .getResultList();
            return new Page<>(content, total);
        }
    }

    public Optional<Category> find(long id) {
        try (EntityManager em = emf.createEntityManager()) {
            return Optional.ofNullable(em.find(Category.class, id, ReadOnlyMode.READ_ONLY));
        }
    }

    public Category create(CategoryData data) {
        return emf.callInTransaction(em -> {
            try {
                Category category = new Category(data.code(), data.name(), now());
                em.persist(category);
                em.flush();
                return category;
            } catch (PersistenceException e) {
                throw translate(e, data);
            }
        });
    }

    public Category replace(long id, CategoryData data) {
        return emf.callInTransaction(em -> {
            Category category = em.find(Category.class, id);
            if (category == null) {
                throw new RecordNotFoundException("category", id);
            }
            try {
                category.replace(data.code(), data.name(), now());
                em.flush();
                return category;
            } catch (PersistenceException e) {
                throw translate(e, data);
            }
        });
    }

    /** One DELETE: the foreign key of item, not a check beforehand, says whether items still refer to it. */
    public void delete(long id) {
        int deleted = emf.callInTransaction(em -> {
            try {
                return em.createQuery("delete from Category c where c.id = :id")
                        .setParameter("id", id)
                        .executeUpdate();
            } catch (PersistenceException e) {
                throw translateDelete(e, id);
            }
        });
        if (deleted == 0) {
            throw new RecordNotFoundException("category", id);
        }
    }

    /**
     * A unique violation on a category write can only be its code (the id is generated). Any
     * other failure is left as it is: unavailable (503) or a logged 500.
     */
    static RuntimeException translate(PersistenceException e, CategoryData data) {
        if (DatabaseErrors.UNIQUE_VIOLATION.equals(DatabaseErrors.sqlState(e))) {
            return new DuplicateKeyException("code", data.code());
        }
        return e;
    }

    /** A foreign-key violation on a category delete: items still refer to it. */
    static RuntimeException translateDelete(PersistenceException e, long id) {
        if (DatabaseErrors.FOREIGN_KEY_VIOLATION.equals(DatabaseErrors.sqlState(e))) {
            return new CategoryInUseException(id);
        }
        return e;
    }

    /** The column keeps microseconds: the value answered is the value stored. */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
