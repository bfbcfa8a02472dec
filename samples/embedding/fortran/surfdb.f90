! surfdb's C API (surfdb.h, and model.h's models and their runs) for Fortran through
! ISO_C_BINDING: the types and functions the examples use. Compile it with the program:
! gfortran surfdb.f90 PROGRAM.f90 -lsurfdb_runtime (models: -lsurfdb_c_simulation -lsurfdb_c)
module surfdb
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int), parameter :: surfdb_ok = 0

  type, bind(c) :: surfdb_point
    real(c_double) :: u, v
    real(c_double) :: p(3), n(3), t(3), b(3)
    real(c_double) :: dp_du(3), dp_dv(3), dn_du(3), dn_dv(3)
    real(c_double) :: k1, k2
    integer(c_int) :: status, degenerate
  end type

  ! surfdb_query_d1's lighter answer: point, first derivatives, unit normal.
  type, bind(c) :: surfdb_point_d1
    real(c_double) :: u, v
    real(c_double) :: p(3), dp_du(3), dp_dv(3), n(3)
    integer(c_int) :: status
  end type

  ! Pose and velocities of a body, world axes, SI; rotation is row-major body to world.
  type, bind(c) :: surfdb_body_state
    real(c_double) :: r(3)
    real(c_double) :: rotation(9)
    real(c_double) :: velocity(3)
    real(c_double) :: angular_velocity(3)
  end type

  type, bind(c) :: surfdb_mount
    real(c_double) :: offset(3)
    real(c_double) :: rotation(9)
  end type

  ! status: 0 separated, 1 touching, 2 no convergence, 3 invalid cell, 4 outside domain, 5 singular
  type, bind(c) :: surfdb_contact_result
    integer(c_int) :: status, iterations
    real(c_double) :: u_i, v_i, u_j, v_j
    real(c_double) :: point_i(3), point_j(3), normal(3)
    real(c_double) :: indentation, gap, indentation_rate
    real(c_double) :: tangential_velocity(3)
    real(c_double) :: curvature_i, curvature_j
  end type

  interface
    type(c_ptr) function surfdb_last_error() bind(c)
      import :: c_ptr
    end function
    integer(c_int) function surfdb_open(path, db) bind(c)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), dimension(*), intent(in) :: path
      type(c_ptr), intent(out) :: db
    end function
    subroutine surfdb_close(db) bind(c)
      import :: c_ptr
      type(c_ptr), value :: db
    end subroutine
    integer(c_int) function surfdb_binding_create(db, wu, wv, binding) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: db
      integer(c_int), value :: wu, wv
      type(c_ptr), intent(out) :: binding
    end function
    subroutine surfdb_binding_destroy(binding) bind(c)
      import :: c_ptr
      type(c_ptr), value :: binding
    end subroutine
    integer(c_int) function surfdb_query(binding, u, v, point) bind(c)
      import :: c_int, c_ptr, c_double, surfdb_point
      type(c_ptr), value :: binding
      real(c_double), value :: u, v
      type(surfdb_point), intent(out) :: point
    end function
    ! A hint that a query at (u, v) comes soon (loops over many points: hint 8 points ahead).
    subroutine surfdb_prefetch(binding, u, v) bind(c)
      import :: c_ptr, c_double
      type(c_ptr), value :: binding
      real(c_double), value :: u, v
    end subroutine
    integer(c_int) function surfdb_query_d1(binding, u, v, point) bind(c)
      import :: c_int, c_ptr, c_double, surfdb_point_d1
      type(c_ptr), value :: binding
      real(c_double), value :: u, v
      type(surfdb_point_d1), intent(out) :: point
    end function
    integer(c_int) function surfdb_contact_create(surface_i, mount_i, surface_j, mount_j, contact) bind(c)
      import :: c_int, c_ptr, surfdb_mount
      type(c_ptr), value :: surface_i, surface_j
      type(surfdb_mount), intent(in) :: mount_i, mount_j
      type(c_ptr), intent(out) :: contact
    end function
    subroutine surfdb_contact_destroy(contact) bind(c)
      import :: c_ptr
      type(c_ptr), value :: contact
    end subroutine
    integer(c_int) function surfdb_contact_evaluate(contact, body_i, body_j, result) bind(c)
      import :: c_int, c_ptr, surfdb_body_state, surfdb_contact_result
      type(c_ptr), value :: contact
      type(surfdb_body_state), intent(in) :: body_i, body_j
      type(surfdb_contact_result), intent(out) :: result
    end function

    ! model.h: a scenario compiled once into a model, runs of it (data) stepped by the library.
    integer(c_int) function surfdb_model_open(scenario, overrides, override_count, model) bind(c)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), dimension(*), intent(in) :: scenario
      type(c_ptr), value :: overrides  ! const char* const*, or c_null_ptr with override_count 0
      integer(c_int), value :: override_count
      type(c_ptr), intent(out) :: model
    end function
    subroutine surfdb_model_close(model) bind(c)
      import :: c_ptr
      type(c_ptr), value :: model
    end subroutine
    integer(c_int) function surfdb_data_make(model, data) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: model
      type(c_ptr), intent(out) :: data
    end function
    subroutine surfdb_data_close(data) bind(c)
      import :: c_ptr
      type(c_ptr), value :: data
    end subroutine
    real(c_double) function surfdb_data_time(data) bind(c)
      import :: c_double, c_ptr
      type(c_ptr), value :: data
    end function
    integer(c_int) function surfdb_data_state_size(data) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: data
    end function
    ! Per body 13 numbers: position (3), Euler parameters (4), velocity (3), angular velocity
    ! (3, body axes); then the contacts' dissipated energies and surface joints' parameters.
    integer(c_int) function surfdb_data_get_state(data, state, size) bind(c)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: data
      real(c_double), intent(out) :: state(*)
      integer(c_int), value :: size
    end function
    integer(c_int) function surfdb_data_set_state(data, state, size) bind(c)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: data
      real(c_double), intent(in) :: state(*)
      integer(c_int), value :: size
    end function
    integer(c_int) function surfdb_step(model, data) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: model, data
    end function
    integer(c_int) function surfdb_advance(model, data, t) bind(c)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: model, data
      real(c_double), value :: t
    end function
    integer(c_int) function surfdb_reset(model, data) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: model, data
    end function
  end interface

contains

  ! Stops the program with surfdb's message when a call did not succeed.
  subroutine surfdb_check(status)
    integer(c_int), intent(in) :: status
    character(kind=c_char), pointer :: message(:)
    integer :: length
    if (status == surfdb_ok) return
    call c_f_pointer(surfdb_last_error(), message, [4096])
    length = 0
    do while (message(length + 1) /= c_null_char)
      length = length + 1
    end do
    write (0, '(a, 4096a)') 'surfdb: ', message(1:length)
    stop 1, quiet=.true.
  end subroutine
end module
