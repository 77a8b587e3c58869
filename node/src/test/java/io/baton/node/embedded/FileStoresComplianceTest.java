package io.baton.node.embedded;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.ExecutionJournalComplianceSuite;
import io.baton.store.BlobStore;
import io.baton.store.BlobStoreComplianceSuite;
import io.baton.store.EventStoreComplianceSuite;
import io.baton.store.MetadataStoreComplianceSuite;
import io.baton.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;

/** The embedded store passes the same compliance suites as the in-memory and PostgreSQL stores. */
class FileStoresComplianceTest extends MetadataStoreComplianceSuite {
  @Override
  protected Stores newStores() throws Exception {
    return FileStores.open(Files.createTempDirectory("baton-embedded"), Clock.systemUTC()).stores();
  }

  @Nested
  class Journal extends ExecutionJournalComplianceSuite {
    private Stores stores;

    @Override
    protected ExecutionJournal createJournal() throws Exception {
      stores = newStores();
      return stores.journal();
    }

    @Override
    protected void closeJournal(ExecutionJournal journal) throws Exception {
      stores.close();
    }
  }

  @Nested
  class Blobs extends BlobStoreComplianceSuite {
    private final List<Stores> opened = new ArrayList<>();

    @Override
    protected BlobStore createBlobStore(int maxBytes) throws Exception {
      Path dir = Files.createTempDirectory("baton-blobs");
      Stores stores = FileStores.open(dir, Clock.systemUTC(), maxBytes).stores();
      opened.add(stores);
      return stores.blobs();
    }

    @AfterEach
    void closeStores() throws Exception {
      for (Stores stores : opened) {
        stores.close();
      }
    }
  }

  @Nested
  class Events extends EventStoreComplianceSuite {
    @Override
    protected Stores createStores() throws Exception {
      return newStores();
    }
  }
}
