package io.imcore.auth.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class DeviceRepository implements PanacheRepositoryBase<Device, Device.Key> {

    public Optional<Device> findByGuid(long userId, String deviceGuid) {
        return find("#" + Device.BY_GUID, userId, deviceGuid).firstResultOptional();
    }

    public List<Device> ofUser(long userId) {
        return list("#" + Device.OF_USER, userId);
    }
}
