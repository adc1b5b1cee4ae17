package bench.catalog.data;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import java.util.Optional;
import org.hibernate.Hibernate;
import org.hibernate.jpa.HibernateHints;

/**
 * Items through JPA. Every read that returns items join-fetches their category, so a page is
 * one SELECT plus its count, never one query per item.
 */
public final class ItemRepository {

    private static final String SELECT_WITH_CATEGORY = "select i from Item i join fetch i.category ";

    private final EntityManagerFactory emf;

    public ItemRepository(EntityManagerFactory emf) {
        this.emf = emf;
    }

    public Page<Item> page(PageRequest request) {
        try (EntityManager em = emf.createEntityManager()) {
            long total = em.createQuery("select count(*) from Item i", Long.class).getSingleResult();
            if (request.offset() >= total) {
                return Page.empty(total);
            }
            return new Page<>(em.createQuery(SELECT_WITH_CATEGORY + "order by i.id", Item.class)
                    .setFirstResult((int) request.offset())
                    .setMaxResults(request.size())
                    .setHint(HibernateHints.HINT_READ_ONLY, true)
                    .getResultList(), total);
        }
    }

    /** Items of one category; an unknown category is simply an empty page here. */
    public Page<Item> pageOfCategory(long categoryId, PageRequest request) {
        try (EntityManager em = emf.createEntityManager()) {
            return pageOfCategory(em, categoryId, request);
        }
    }

    /**
     * Items of one category, or empty when the category does not exist. The category is looked
     * up only when it has no items: a category with items exists (the foreign key says so).
     */
    public Optional<Page<Item>> pageOfExistingCategory(long categoryId, PageRequest request) {
        try (EntityManager em = emf.createEntityManager()) {
            Page<Item> page = pageOfCategory(em, categoryId, request);
            if (page.totalElements() == 0 && em.createQuery("select c.id from Category c where c.id = :id", Long.class)
                    .setParameter("id", categoryId)
                    .getResultList()
                    .isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(page);
        }
    }

    private static Page<Item> pageOfCategory(EntityManager em, long categoryId, PageRequest request) {
        long total = em.createQuery("select count(*) from Item i where i.category.id = :categoryId", Long.class)
                .setParameter("categoryId", categoryId)
                .getSingleResult();
        if (request.offset() >= total) {
            return Page.empty(total);
        }
        return new Page<>(em.createQuery(SELECT_WITH_CATEGORY + "where i.category.id = :categoryId order by i.id", Item.class)
                .setParameter("categoryId", categoryId)
                .setFirstResult((int) request.offset())
                .setMaxResults(request.size())
                .setHint(HibernateHints.HINT_READ_ONLY, true)
                .getResultList(), total);
    }

    /** One SELECT with the category joined. */
    public Optional<Item> find(long id) {
        try (EntityManager em = emf.createEntityManager()) {
            return findWithCategory(em, id, true);
        }
    }

    /**
     * The category is set by reference (no SELECT); PostgreSQL's foreign key rejects an unknown
     * one. The category's code and name for the answer are read after the INSERT.
     */
    public Item create(ItemData data) {
        return emf.callInTransaction(em -> {
            try {
                Item item = new Item(data, em.getReference(Category.class, data.categoryId()), CategoryRepository.now());
                em.persist(item);
                em.flush();
                Hibernate.initialize(item.getCategory());
                return item;
            } catch (PersistenceException e) {
                throw translate(e, data);
            }
        });
    }

    /** The item is read first, so an absent item is a 404 whatever its new category would be. */
    public Item replace(long id, ItemData data) {
        return emf.callInTransaction(em -> {
            Item item = findWithCategory(em, id, false).orElseThrow(() -> new RecordNotFoundException("item", id));
            try {
                item.replace(data, em.getReference(Category.class, data.categoryId()), CategoryRepository.now());
                em.flush();
                Hibernate.initialize(item.getCategory());
                return item;
            } catch (PersistenceException e) {
                throw translate(e, data);
            }
        });
    }

    public void delete(long id) {
        int deleted = emf.callInTransaction(em -> em.createQuery("delete from Item i where i.id = :id")
                .setParameter("id", id)
                .executeUpdate());
        if (deleted == 0) {
            throw new RecordNotFoundException("item", id);
        }
    }

    private static Optional<Item> findWithCategory(EntityManager em, long id, boolean readOnly) {
        return em.createQuery(SELECT_WITH_CATEGORY + "where i.id = :id", Item.class)
                .setParameter("id", id)
                .setHint(HibernateHints.HINT_READ_ONLY, readOnly)
                .getResultList()
                .stream()
                .findFirst();
    }

    /**
     * On an item write a unique violation can only be its sku (the id is generated), and a
     * foreign-key violation only its category. Any other failure is left as it is: unavailable
     * (503) or a logged 500.
     */
    static RuntimeException translate(PersistenceException e, ItemData data) {
        String state = DatabaseErrors.sqlState(e);
        if (DatabaseErrors.UNIQUE_VIOLATION.equals(state)) {
            return new DuplicateKeyException("sku", data.sku());
        }
        if (DatabaseErrors.FOREIGN_KEY_VIOLATION.equals(state)) {
            return new UnknownCategoryException(data.categoryId());
        }
        return e;
    }
}
