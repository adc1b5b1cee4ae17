package bench.catalog.data;

import bench.catalog.Config;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceConfiguration;
import jakarta.persistence.PersistenceUnitTransactionType;
import jakarta.persistence.SharedCacheMode;
import jakarta.persistence.ValidationMode;

/** The connection pool and the JPA persistence unit built on it, both from {@link Config}. */
public final class Database implements AutoCloseable {

    /** The database cannot be reached at start; the message names it without credentials. */
    public static final class UnreachableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        UnreachableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final HikariDataSource dataSource;
    private final EntityManagerFactory entityManagerFactory;

    private Database(HikariDataSource dataSource, EntityManagerFactory entityManagerFactory) {
        this.dataSource = dataSource;
        this.entityManagerFactory = entityManagerFactory;
    }

    public static Database connect(Config config) {
        HikariDataSource dataSource;
        try {
            dataSource = new HikariDataSource(poolConfig(config));
        } catch (HikariPool.PoolInitializationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new UnreachableException("cannot connect to the database at " + config.databaseLabel()
                    + ": " + cause.getMessage(), e);
        }
        try {
            return new Database(dataSource, persistenceUnit(dataSource).createEntityManagerFactory());
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    private static HikariConfig poolConfig(Config config) {
        HikariConfig pool = new HikariConfig();
        pool.setPoolName("catalog");
        pool.setJdbcUrl(config.jdbcUrl());
        pool.setUsername(config.databaseUser());
        pool.setPassword(config.databasePassword());
        // A fixed-size pool, as HikariCP recommends: minimumIdle defaults to maximumPoolSize.
        pool.setMaximumPoolSize(config.poolSize());
        // API.md: a request that gets no connection within 5 s answers 503.
        pool.setConnectionTimeout(5_000);
        // Dead connections (PostgreSQL restarted) are found on borrow and replaced, never handed out.
        pool.setValidationTimeout(1_000);
        // Fail at start, not at the first request, when the database cannot be reached.
        pool.setInitializationFailTimeout(1);
        pool.addDataSourceProperty("ApplicationName", "java-jersey");
        pool.addDataSourceProperty("connectTimeout", "5");
        // Keeps row values (the DETAIL of a constraint violation) out of exception messages and logs.
        pool.addDataSourceProperty("logServerErrorDetail", "false");
        return pool;
    }

    private static PersistenceConfiguration persistenceUnit(HikariDataSource dataSource) {
        return new PersistenceConfiguration("catalog")
                .transactionType(PersistenceUnitTransactionType.RESOURCE_LOCAL)
                .managedClass(Category.class)
                .managedClass(Item.class)
                .sharedCacheMode(SharedCacheMode.NONE)
                .validationMode(ValidationMode.NONE)
                .property(PersistenceConfiguration.SCHEMAGEN_DATABASE_ACTION, "none")
                .property("jakarta.persistence.nonJtaDataSource", dataSource)
                // db/schema.sql owns the schema: Hibernate neither creates nor validates it.
                .property("hibernate.hbm2ddl.auto", "none");
    }

    public EntityManagerFactory entityManagerFactory() {
        return entityManagerFactory;
    }

    /** {@code SELECT 1} through the pool; throws when the database does not answer. */
    public void ping() {
        try (EntityManager em = entityManagerFactory.createEntityManager()) {
            em.createNativeQuery("select 1", Integer.class).getSingleResult();
        }
    }

    @Override
    public void close() {
        try {
            entityManagerFactory.close();
        } finally {
            dataSource.close();
        }
    }
}
